/* check_census.c: the census of snapshots (core/census.h), its groups of
 * entries in particular: a group counted again by its key leaves every
 * entry as counting each one would (seen, the input it first appeared
 * in, the order of the table); a group listed in part, or one from before
 * census_order, is not known again. The expected counts are the
 * snapshots each test counts, written out beside them. */
#include "check_main.h"

#include "core/census.h"

static struct census c;

static void
setup(void)
{
	census_init(&c);
}

static void
teardown(void)
{
	census_free(&c);
}

/* The entries of one snapshot: object 7 (group key 70) with counters 1
 * and 2, object 8 (group 80) with counter 3; each group through
 * census_group when grouped, else entry by entry. Returns how many
 * groups were known again. */
static unsigned
snapshot(bool grouped)
{
	static const uint32_t obj[2] = { 7, 8 };
	static const uint32_t ctrs[2][3] = { { 1, 2, 0 }, { 3, 0, 0 } };
	unsigned again = 0;

	for (unsigned i = 0; i < 2; i++) {
		if (grouped && census_group(&c, obj[i] * 10)) {
			again++;
			continue;
		}
		ck_assert(census_entry(&c, obj[i], CENSUS_OBJECT, 0) == PM_OK);
		for (unsigned k = 0; k < 3 && ctrs[i][k]; k++)
			ck_assert(census_entry(&c, obj[i], ctrs[i][k], 5) == PM_OK);
		if (grouped)
			census_group_end(&c, true);
	}
	return again;
}

static const struct census_entry *
entry(uint32_t object, uint32_t counter)
{
	for (size_t i = 0; i < c.nentries; i++)
		if (c.entries[i].object == object && c.entries[i].counter == counter)
			return &c.entries[i];
	ck_abort_msg("no entry %u/%u", object, counter);
	return NULL;
}

START_TEST(groups_counted_again_as_each_entry)
{
	ck_assert_uint_eq(snapshot(true), 0);   /* listed */
	ck_assert_uint_eq(snapshot(true), 2);   /* both known again */
	ck_assert_uint_eq(snapshot(true), 2);
	ck_assert_uint_eq(snapshot(false), 0);  /* entry by entry: the same entries */
	ck_assert_uint_eq(c.nentries, 5);
	/* four snapshots held each entry */
	for (size_t i = 0; i < c.nentries; i++)
		ck_assert_uint_eq(c.entries[i].seen, 4);
	/* in the order of first appearance */
	ck_assert_uint_eq(c.entries[0].counter, CENSUS_OBJECT);
	ck_assert_uint_eq(c.entries[1].counter, 1);
	ck_assert_uint_eq(c.entries[2].counter, 2);
	ck_assert_uint_eq(c.entries[3].object, 8);
	ck_assert_uint_eq(c.entries[4].counter, 3);
}
END_TEST

START_TEST(group_listed_in_part_is_not_known)
{
	ck_assert(!census_group(&c, 70));
	ck_assert(census_entry(&c, 7, CENSUS_OBJECT, 0) == PM_OK);
	census_group_end(&c, false);            /* the rest not counted */
	ck_assert(!census_group(&c, 70));       /* listed again, whole */
	ck_assert(census_entry(&c, 7, CENSUS_OBJECT, 0) == PM_OK);
	ck_assert(census_entry(&c, 7, 1, 5) == PM_OK);
	census_group_end(&c, true);
	ck_assert(census_group(&c, 70));
	ck_assert_uint_eq(entry(7, CENSUS_OBJECT)->seen, 3);
	ck_assert_uint_eq(entry(7, 1)->seen, 2);
	ck_assert(!census_group(&c, 0));        /* no key: never a group */
	census_group_end(&c, true);
	ck_assert(!census_group(&c, 0));
}
END_TEST

START_TEST(group_keeps_the_earlier_input)
{
	ck_assert(census_input(&c, "b.dat"));
	ck_assert_uint_eq(snapshot(true), 0);
	ck_assert(census_input(&c, "a.dat"));   /* before b.dat by name */
	ck_assert_uint_eq(snapshot(true), 2);
	for (size_t i = 0; i < c.nentries; i++) {
		ck_assert_str_eq(c.names[c.entries[i].input], "a.dat");
		ck_assert_uint_eq(c.entries[i].seen, 2);
	}
	ck_assert(census_input(&c, "c.dat"));   /* after: a.dat stays */
	ck_assert_uint_eq(snapshot(true), 2);
	for (size_t i = 0; i < c.nentries; i++)
		ck_assert_str_eq(c.names[c.entries[i].input], "a.dat");
}
END_TEST

START_TEST(order_forgets_the_groups)
{
	ck_assert_uint_eq(snapshot(true), 0);
	census_order(&c);
	ck_assert_uint_eq(snapshot(true), 0);   /* listed anew */
	ck_assert_uint_eq(snapshot(true), 2);
	ck_assert_uint_eq(entry(8, 3)->seen, 3);
}
END_TEST

Suite *
unit_suite(void)
{
	Suite *s = suite_create("census");
	TCase *tc = tcase_create("Core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, groups_counted_again_as_each_entry);
	tcase_add_test(tc, group_listed_in_part_is_not_known);
	tcase_add_test(tc, group_keeps_the_earlier_input);
	tcase_add_test(tc, order_forgets_the_groups);
	suite_add_tcase(s, tc);
	return s;
}
