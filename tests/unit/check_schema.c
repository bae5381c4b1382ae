/* check_schema.c: the reader-neutral schema, and PMIM's binding to it:
 * what the copybook's fields, parts and buckets become, and an interval
 * handed on as a frame without a copy. */
#include "check_main.h"
#include <stdlib.h>
#include <string.h>

#include "pmim/binding.h"
#include "pmim/pmint.h"

static struct pmint pm;
static struct schema *schema;

static void
setup(void)
{
	char err[160];

	ck_assert(pmint_load(&pm, err, sizeof err) == PM_OK);
	ck_assert_msg(binding_schema_open(&schema, &pm, err, sizeof err) == PM_OK,
	              "%s", err);
}

static void
teardown(void)
{
	schema_close(schema);
}

START_TEST(fields_are_figures)
{
	int f = schema_figure_index(schema, "INTDBIRT");
	const struct schema_figure *fig;

	ck_assert_uint_eq(schema->nfigures, pm.lay.nfields);
	ck_assert_int_eq(f, layout_field_index(&pm.lay, "INTDBIRT"));
	fig = &schema->figures[f];
	ck_assert_int_eq(fig->kind, SCHEMA_TIME);
	ck_assert_uint_eq(fig->ticks_per_second, 10000);  /* 10**-4 s */
	ck_assert_uint_eq(fig->group, 1);
	fig = &schema->figures[schema_figure_index(schema, "INTZPTI")];
	ck_assert_int_eq(fig->kind, SCHEMA_TIME);
	ck_assert_uint_eq(fig->ticks_per_second, 4096000000u);  /* TOD */
	ck_assert_uint_eq(fig->group, 3);
	/* the record length is in the header: no counter type reads it */
	ck_assert_int_eq(schema->figures[schema_figure_index(schema, "INTLEN")].kind,
	                 SCHEMA_OTHER);
	ck_assert_int_eq(schema_figure_index(schema, "NOSUCH"), -1);
	ck_assert_uint_eq(schema->groups, 0xE);  /* parts 1, 2 and 3 */
}
END_TEST

START_TEST(buckets_are_a_family)
{
	const struct schema_family *fam = &schema->family;
	const struct schema_row *row = &fam->rows[0];

	ck_assert_str_eq(fam->name, "bucket");
	ck_assert_uint_eq(fam->nrows, pm.lay.nbuckets);
	ck_assert_str_eq(row->label, "INTDBIR");
	ck_assert_str_eq(row->desc, "DBIO READ WAIT");
	ck_assert_uint_eq(row->group, 1);
	ck_assert_int_eq(schema_member_index(schema, "%T"), 0);
	ck_assert_int_eq(schema_member_index(schema, "%#"), 2);
	ck_assert_int_eq(schema_member_index(schema, "%X"), -1);
	ck_assert_uint_eq(row->figure[0], (uint32_t)layout_field_index(&pm.lay, "INTDBIRT"));
	ck_assert_uint_eq(row->figure[1], (uint32_t)layout_field_index(&pm.lay, "INTDBIRH"));
	ck_assert_uint_eq(row->figure[2], (uint32_t)layout_field_index(&pm.lay, "INTDBIR#"));
	ck_assert_int_eq(schema_sum_index(schema, "@waits"), 1);
	ck_assert_uint_eq(schema->sums[1].member, 2);
	ck_assert_uint_eq(schema_family_groups(schema), 0x6);  /* parts 1 and 2 */
}
END_TEST

START_TEST(interval_is_a_frame)
{
	static struct interval iv;
	struct frame f;

	iv.source = 7;
	iv.start = 100;
	iv.end = 200;
	iv.parts = 0x6;
	binding_frame_of(&f, &iv);
	ck_assert_uint_eq(f.source, 7);
	ck_assert_int_eq(f.start, 100);
	ck_assert_int_eq(f.end, 200);
	ck_assert_uint_eq(f.have, 0x6);
	ck_assert_ptr_eq(f.x, iv.v);
}
END_TEST

START_TEST(too_many_figures)
{
	struct schema *s = (struct schema *)&pm;

	ck_assert_int_eq(schema_open(&s, SCHEMA_MAX_FIGURES + 1, 0), PM_E_LAYOUT);
	ck_assert_ptr_null(s);
	ck_assert_int_eq(schema_open(&s, SCHEMA_MAX_FIGURES, 0), PM_OK);
	schema_close(s);
}
END_TEST

Suite *
unit_suite(void)
{
	Suite *s = suite_create("schema");
	TCase *tc = tcase_create("schema");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, fields_are_figures);
	tcase_add_test(tc, buckets_are_a_family);
	tcase_add_test(tc, interval_is_a_frame);
	tcase_add_test(tc, too_many_figures);
	suite_add_tcase(s, tc);
	return s;
}
