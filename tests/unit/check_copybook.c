/* check_copybook.c: the layout derived from copybooks/pmintds.lst against
 * the DSECT's own figures (its EQU values and the offsets printed in the
 * listing), and the listing parser's handling of bad listings. */
#include "check_main.h"
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/copybook.h"
#include "core/layout_text.h"
#include "pmim/pmint.h"

static struct pmint pm;

static void
setup(void)
{
	char err[128] = "";
	ck_assert_msg(pmint_load(&pm, err, sizeof err) == PM_OK, "%s", err);
}

static long
equ(const char *name)
{
	long v = -1;
	ck_assert_msg(layout_equate(&pm.lay, name, &v), "EQU %s missing", name);
	return v;
}

START_TEST(header_length)
{
	/* INTHDRLN EQU *-INTHDR = X'1C' */
	ck_assert_int_eq(equ("INTHDRLN"), 0x1C);
	ck_assert_uint_eq(pm.header_len, 0x1C);
	ck_assert_uint_eq(layout_field(&pm.lay, "INTETIME")->offset, 0x18);
}
END_TEST

START_TEST(part_lengths)
{
	/* INT1DSLN X'F0', INT2DSLN X'F4', INT3DSLN X'C0', and the parts' data
	 * lengths INTnDTLN = INTnDSLN - INTHDRLN */
	ck_assert_uint_eq(pm.nparts, 3);
	ck_assert_uint_eq(pm.part_len[1], 0xF0);
	ck_assert_uint_eq(pm.part_len[2], 0xF4);
	ck_assert_uint_eq(pm.part_len[3], 0xC0);
	ck_assert_int_eq(equ("INT1DSLN"), 0xF0);
	ck_assert_int_eq(equ("INT2DSLN"), 0xF4);
	ck_assert_int_eq(equ("INT3DSLN"), 0xC0);
	ck_assert_int_eq(equ("INT1DTLN"), 0xD4);
	ck_assert_int_eq(equ("INT2DTLN"), 0xD8);
	ck_assert_int_eq(equ("INT3DTLN"), 0xA4);
	for (unsigned p = 1; p <= 3; p++) {
		char name[16];
		snprintf(name, sizeof name, "INT%uDSLN", p);
		ck_assert_uint_eq(pm.part_len[p], (size_t)equ(name));
	}
}
END_TEST

START_TEST(max_length)
{
	/* INTMXLEN EQU ((*-#PMINT+7)/8*8): the largest part, X'F4', rounded
	 * up to a doubleword is X'F8'. */
	ck_assert_int_eq(equ("INTMXLEN"), 0xF8);
	ck_assert_uint_eq(pm.max_len, 0xF8);
	size_t largest = 0;
	for (unsigned p = 1; p <= pm.nparts; p++)
		if (pm.part_len[p] > largest)
			largest = pm.part_len[p];
	ck_assert_uint_eq((largest + 7) / 8 * 8, 0xF8);
}
END_TEST

START_TEST(buckets)
{
	/* 16 buckets in part 1, 18 in part 2 (INT1#BKT, INT2#BKT), 34 in all
	 * (INT#BKTS); each a (sum, highest, count) triple of fullwords */
	size_t n1 = 0, n2 = 0;
	for (size_t i = 0; i < pm.lay.nbuckets; i++) {
		const struct cb_bucket *b = &pm.lay.buckets[i];
		const struct cb_field *s = &pm.lay.fields[b->sum];
		const struct cb_field *h = &pm.lay.fields[b->high];
		const struct cb_field *c = &pm.lay.fields[b->count];
		n1 += b->part == 1;
		n2 += b->part == 2;
		ck_assert_uint_eq(s->length, 4);
		ck_assert_uint_eq(h->offset, s->offset + 4);
		ck_assert_uint_eq(c->offset, s->offset + 8);
		ck_assert_int_eq(s->units, CB_UNITS_TIME_E4);
		ck_assert_int_eq(h->units, CB_UNITS_TIME_E4);
		ck_assert_int_eq(c->units, CB_UNITS_COUNT);
	}
	ck_assert_uint_eq(n1, 16);
	ck_assert_uint_eq(n2, 18);
	ck_assert_int_eq(equ("INT1#BKT"), 16);
	ck_assert_int_eq(equ("INT2#BKT"), 18);
	ck_assert_int_eq(equ("INT#BKTS"), 34);
	ck_assert_uint_eq(pm.lay.nbuckets, 34);
	/* first and last buckets as printed in the listing */
	ck_assert_str_eq(pm.lay.buckets[0].label, "INTDBIR");
	ck_assert_str_eq(pm.lay.buckets[0].desc, "DBIO READ WAIT");
	ck_assert_uint_eq(pm.lay.fields[pm.lay.buckets[0].sum].offset, 0x30);
	ck_assert_str_eq(pm.lay.buckets[15].label, "INTQUEW");
	ck_assert_uint_eq(pm.lay.fields[pm.lay.buckets[15].count].offset, 0xEC);
	ck_assert_str_eq(pm.lay.buckets[16].label, "INTDBKY");
	ck_assert_uint_eq(pm.lay.fields[pm.lay.buckets[16].sum].offset, 0x1C);
	ck_assert_str_eq(pm.lay.buckets[33].label, "INTXLI");
	ck_assert_uint_eq(pm.lay.fields[pm.lay.buckets[33].count].offset, 0xF0);
}
END_TEST

START_TEST(part3_cpu)
{
	/* DS 0D aligns the extended statistics to X'20', not X'1C' */
	static const char *const tod[] = { "INTSYTI", "INTCPTI", "INTZPTI",
	                                   "INTUSTI", "INTTTTI", "INTENTI" };
	ck_assert_uint_eq(layout_field(&pm.lay, "INTXBEG")->offset, 0x20);
	for (size_t i = 0; i < 6; i++) {
		const struct cb_field *f = layout_field(&pm.lay, tod[i]);
		ck_assert_ptr_nonnull(f);
		ck_assert_uint_eq(f->part, 3);
		ck_assert_uint_eq(f->offset, 0x20 + 8 * i);
		ck_assert_uint_eq(f->length, 8);
		ck_assert_int_eq(f->type, 'D');
		ck_assert_int_eq(f->units, CB_UNITS_TOD);
	}
	ck_assert_uint_eq(layout_field(&pm.lay, "INTXEND")->offset, 0xC0);
}
END_TEST

START_TEST(header_fields)
{
	const struct cb_field *f = layout_field(&pm.lay, "INTSDATE");
	ck_assert_uint_eq(f->offset, 0x0C);
	ck_assert_int_eq(f->type, 'P');
	ck_assert_int_eq(f->units, CB_UNITS_PDATE);
	ck_assert_uint_eq(layout_field(&pm.lay, "INTSEQ#")->offset, 3);
	ck_assert_uint_eq(layout_field(&pm.lay, "INTTIMSY")->offset, 0x24);
	ck_assert_int_eq(layout_field(&pm.lay, "INT#TSTR")->units, CB_UNITS_COUNT);
	ck_assert_uint_eq(pm.interval_type, 5);
	ck_assert_uint_eq(pm.current_version, 1);
}
END_TEST

START_TEST(smf_header_layout)
{
	struct layout lay;
	char err[128];
	long v;
	ck_assert_int_eq(layout_parse(smfhdr_listing, NULL, NULL, NULL, &lay, err, sizeof err), PM_OK);
	ck_assert_uint_eq(layout_field(&lay, "SMFRTY")->offset, 5);
	ck_assert_uint_eq(layout_field(&lay, "SMFSID")->offset, 14);
	ck_assert_uint_eq(layout_field(&lay, "SMFSID")->length, 4);
	ck_assert(layout_equate(&lay, "SMFHDRLN", &v) && v == 18);
	ck_assert(layout_equate(&lay, "SMFXHDLN", &v) && v == 24);
	ck_assert(layout_equate(&lay, "SMF$STY", &v) && v == 0x40);
	layout_free(&lay);
}
END_TEST

START_TEST(bad_listings)
{
	static struct layout lay;
	char err[128];
	ck_assert_int_eq(layout_parse("000000 X DSECT\n000000 A DS Q9\n", NULL, NULL, NULL, &lay, err, sizeof err),
	                 PM_E_LAYOUT);
	ck_assert_str_eq(err, "line 2: cannot read DS operand 'Q9'");
	ck_assert_int_eq(layout_parse("000000 A DS F\n000004 A DS F\n", NULL, NULL, NULL, &lay, err, sizeof err),
	                 PM_E_LAYOUT);
	ck_assert_str_eq(err, "line 2: field defined twice 'A'");
	ck_assert_int_eq(layout_parse("just prose\n", NULL, NULL, NULL, &lay, err, sizeof err), PM_E_LAYOUT);
	ck_assert_int_eq(layout_parse("000000 A FOO F\n", NULL, NULL, NULL, &lay, err, sizeof err), PM_E_LAYOUT);
	ck_assert_str_eq(err, "line 1: unknown statement 'FOO'");
}
END_TEST

/* The tables grow with the listing: CB_MAX_FIELDS fields and
 * CB_MAX_EQUATES equates are read, one more of either is refused at its
 * line. */
static char *
many(bool equates, size_t n)
{
	char *text = malloc(n * 40 + 1), *p = text;

	ck_assert_ptr_nonnull(text);
	*p = '\0';
	for (unsigned i = 0; i < n; i++)
		p += equates ? sprintf(p, "%05X E%u EQU 1\n", i, i)
		             : sprintf(p, "%06X F%u DS F\n", 4 * i, i);
	return text;
}

START_TEST(limits_from_the_listing)
{
	static struct layout lay;
	char err[128], *text;

	text = many(false, CB_MAX_FIELDS);
	ck_assert_int_eq(layout_parse(text, "f.lst", NULL, NULL, &lay, err, sizeof err), PM_OK);
	ck_assert_uint_eq(lay.nfields, CB_MAX_FIELDS);
	ck_assert_uint_eq(layout_field(&lay, "F4095")->offset, 4 * 4095);
	layout_free(&lay);
	free(text);
	text = many(false, CB_MAX_FIELDS + 1);
	ck_assert_int_eq(layout_parse(text, "f.lst", NULL, NULL, &lay, err, sizeof err),
	                 PM_E_LAYOUT);
	ck_assert_str_eq(err, "f.lst:4097: too many fields (at most 4096)");
	ck_assert_ptr_null(lay.fields);
	free(text);
	text = many(true, CB_MAX_EQUATES + 1);
	ck_assert_int_eq(layout_parse(text, NULL, NULL, NULL, &lay, err, sizeof err),
	                 PM_E_LAYOUT);
	ck_assert_str_eq(err, "line 1025: too many EQU statements (at most 1024)");
	free(text);
}
END_TEST

/* The parser knows no PMIM: without a binding's comment hook, SEQ#=
 * comments start no part and no field gets units; with pmint_bind they do,
 * and its errors name the listing. */
START_TEST(conventions_are_the_binding_s)
{
	static struct layout lay;
	static struct pmint bound;
	char err[160];

	ck_assert_int_eq(layout_parse(pmintds_listing, "x.lst", NULL, NULL, &lay, err,
	                              sizeof err), PM_OK);
	ck_assert_uint_eq(lay.nparts, 1);
	ck_assert_uint_eq(lay.nbuckets, 0);
	ck_assert_int_eq(layout_field(&lay, "INTDBIRT")->units, CB_UNITS_NONE);
	ck_assert_int_eq(pmint_bind(&bound, pmintds_listing, "x.lst", err, sizeof err),
	                 PM_OK);
	ck_assert_uint_eq(bound.nparts, 3);
	ck_assert_int_eq(layout_field(&bound.lay, "INTDBIRT")->units, CB_UNITS_TIME_E4);
	layout_free(&lay);
	pmint_free(&bound);
	ck_assert_int_eq(layout_parse("000000 X DSECT\n000000 A DS Q9\n", "x.lst", NULL,
	                              NULL, &lay, err, sizeof err), PM_E_LAYOUT);
	ck_assert_str_eq(err, "x.lst:2: cannot read DS operand 'Q9'");
	ck_assert_int_eq(pmint_bind(&bound, "* SEQ#=9\n000000 A DS F\n", "y.lst", err,
	                            sizeof err), PM_E_LAYOUT);
	ck_assert_str_eq(err, "y.lst:1: part number out of range");
	ck_assert_int_eq(pmint_bind(&bound, "000000 #PMINT DSECT\n000000 INTLEN DS H\n",
	                            "z.lst", err, sizeof err), PM_E_LAYOUT);
	ck_assert_str_eq(err, "z.lst: field INTRTYPE not found");
}
END_TEST

Suite *
unit_suite(void)
{
	Suite *s = suite_create("copybook");
	TCase *tc = tcase_create("pmintds");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, header_length);
	tcase_add_test(tc, conventions_are_the_binding_s);
	tcase_add_test(tc, part_lengths);
	tcase_add_test(tc, max_length);
	tcase_add_test(tc, buckets);
	tcase_add_test(tc, part3_cpu);
	tcase_add_test(tc, header_fields);
	suite_add_tcase(s, tc);
	tc = tcase_create("parser");
	tcase_add_test(tc, smf_header_layout);
	tcase_add_test(tc, bad_listings);
	tcase_add_test(tc, limits_from_the_listing);
	suite_add_tcase(s, tc);
	return s;
}
