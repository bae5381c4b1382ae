/* check_pm_stage.c: the PM stage. Records are built here through the
 * #PMINTDS layout and fed as a PM stream would feed them (one record) or
 * an SMF record (a chain); what comes out of reassembly, the byte
 * accounting and the messages are worked out by hand from what went in. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "check_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bytes.h"
#include "core/diag.h"
#include "core/tally.h"
#include "core/tzone.h"
#include "pmim/pm_stage.h"
#include "pmim/pmtime.h"
#include "pmim/reasm.h"

#define BASE_OFFSET 1000
#define SOURCE 3
#define T_10_00 360000000u   /* 10:00:00 in 10**-4 s */
#define QUARTER_HOUR 9000000u
/* the parts' lengths in the listing: INT1DSLN, INT2DSLN, INT3DSLN */
#define PART1_LEN 0xF0
#define PART2_LEN 0xF4
#define PART3_LEN 0xC0

static struct pmint pm;

static struct {
	struct diag diag;
	struct tally tally;
	FILE *out;
	char *msg;
	size_t msglen;
	struct reasm *reasm;
	struct pm_stage stage;
	struct interval seen[4];
	size_t nseen;
} t;

static void
on_interval(const struct interval *iv, void *ctx)
{
	(void)ctx;
	ck_assert_uint_lt(t.nseen, 4);
	t.seen[t.nseen] = *iv;
	t.nseen++;
}

static void
setup(void)
{
	struct reasm_opts o = { 8, 0, NULL, NULL };

	memset(&t, 0, sizeof t);
	t.out = open_memstream(&t.msg, &t.msglen);
	ck_assert_ptr_nonnull(t.out);
	diag_init(&t.diag, "pmimrpt", t.out);
	t.diag.file = "test.dat";
	t.diag.max_per_status = 0;
	ck_assert_int_eq(reasm_open(&t.reasm, &pm, &o, on_interval, NULL, &t.diag,
	                            &t.tally), PM_OK);
	t.stage.pm = &pm;
	t.stage.reasm = t.reasm;
	t.stage.diag = &t.diag;
	t.stage.tally = &t.tally;
	t.stage.max_interval = PM_UNITS_PER_DAY;
}

static void
teardown(void)
{
	reasm_close(t.reasm);
	fclose(t.out);
	free(t.msg);
}

static const char *
messages(void)
{
	fflush(t.out);
	return t.msg ? t.msg : "";
}

static void
put(uint8_t *rec, const char *name, uint64_t v)
{
	const struct cb_field *f = layout_field(&pm.lay, name);
	ck_assert_msg(f != NULL, "no field %s", name);
	put_be(rec + f->offset, (unsigned)f->length, v);
}

static uint64_t
value(const struct interval *iv, const char *name)
{
	int i = layout_field_index(&pm.lay, name);
	ck_assert_int_ge(i, 0);
	return iv->v[i];
}

/* An interval record: part seq of 2024-04-09 (day 100) 10:00 to 10:15,
 * len bytes, zero but for its header. */
static size_t
part(uint8_t *rec, unsigned seq, size_t len)
{
	memset(rec, 0, len);
	put(rec, "INTLEN", len);
	put(rec, "INTRTYPE", 5);
	put(rec, "INTSEQ#", seq);
	put(rec, "INTVER#", 1);
	put(rec, "INTSDATE", pmtime_pdate_encode(2024, 100));
	put(rec, "INTSTIME", T_10_00);
	put(rec, "INTEDATE", pmtime_pdate_encode(2024, 100));
	put(rec, "INTETIME", T_10_00 + QUARTER_HOUR);
	return len;
}

/* A chain as an SMF record holds it: part 1, a PM record of another type
 * (8 bytes), part 2, part 3. Every figure is plausible. */
START_TEST(chain_makes_one_interval)
{
	uint8_t buf[PART1_LEN + 8 + PART2_LEN + PART3_LEN];
	size_t n = 0, used;

	n += part(buf + n, 1, PART1_LEN);
	put(buf, "INT#TSTR", 1234);
	put(buf, "INTDBIRT", 500000);
	put(buf, "INTDBIRH", 2500);
	put(buf, "INTDBIR#", 400);
	memset(buf + n, 0, 8);
	put(buf + n, "INTLEN", 8);
	put(buf + n, "INTRTYPE", 7);
	n += 8;
	n += part(buf + n, 2, PART2_LEN);
	put(buf + n - PART2_LEN, "INTXLI#", 77);
	n += part(buf + n, 3, PART3_LEN);
	put(buf + n - PART3_LEN, "INTENTI", 0x123456789ULL);
	used = pm_stage_chain(&t.stage, span_make(buf, n), SOURCE, BASE_OFFSET);
	ck_assert_uint_eq(used, sizeof buf);
	reasm_finish(t.reasm);

	ck_assert_uint_eq(t.nseen, 1);
	ck_assert_uint_eq(t.seen[0].source, SOURCE);
	ck_assert_uint_eq(t.seen[0].parts, 0xE);
	ck_assert_uint_eq(t.seen[0].offset, BASE_OFFSET);
	ck_assert_int_eq(t.seen[0].end - t.seen[0].start, QUARTER_HOUR);
	ck_assert_uint_eq(t.seen[0].stime, T_10_00);
	ck_assert_uint_eq(value(&t.seen[0], "INT#TSTR"), 1234);
	ck_assert_uint_eq(value(&t.seen[0], "INTDBIRT"), 500000);
	ck_assert_uint_eq(value(&t.seen[0], "INTDBIRH"), 2500);
	ck_assert_uint_eq(value(&t.seen[0], "INTDBIR#"), 400);
	ck_assert_uint_eq(value(&t.seen[0], "INTXLI#"), 77);
	ck_assert_uint_eq(value(&t.seen[0], "INTENTI"), 0x123456789ULL);
	/* 240 + 244 + 192 bytes of interval parts used, 8 skipped */
	ck_assert_uint_eq(t.tally.used, 676);
	ck_assert_uint_eq(t.tally.skipped, 8);
	ck_assert_uint_eq(t.tally.damaged, 0);
	ck_assert_uint_eq(t.tally.records[KIND_PM][5], 3);
	ck_assert_uint_eq(t.tally.bytes[KIND_PM][5], 676);
	ck_assert_uint_eq(t.tally.records[KIND_PM][7], 1);
	ck_assert_uint_eq(t.tally.intervals_complete, 1);
	ck_assert_str_eq(messages(), "");
}
END_TEST

/* Three buckets of part 1, each contradicting itself one way: the record
 * is taken as it is, each bucket said, the record counted once. */
START_TEST(implausible_buckets_said)
{
	uint8_t rec[PART1_LEN];

	part(rec, 1, PART1_LEN);
	put(rec, "INTDBIRT", 100);   /* highest 2500 > sum 100 */
	put(rec, "INTDBIRH", 2500);
	put(rec, "INTDBIR#", 1);
	put(rec, "INTDBIWT", 700);   /* 700 with no waits */
	put(rec, "INTDBIWH", 10);
	put(rec, "INTFCBXT", 1000);  /* 1000 > 10 highest x 50 waits = 500 */
	put(rec, "INTFCBXH", 10);
	put(rec, "INTFCBX#", 50);
	pm_stage_record(&t.stage, span_make(rec, sizeof rec), SOURCE, BASE_OFFSET);
	ck_assert_uint_eq(t.tally.used, PART1_LEN);
	ck_assert_uint_eq(t.tally.implausible, 1);
	ck_assert_ptr_nonnull(strstr(messages(),
	        "INTDBIR: highest wait 2500 exceeds the sum 100 (10**-4 s)"));
	ck_assert_ptr_nonnull(strstr(messages(),
	        "INTDBIW: wait time 700 with no waits (10**-4 s)"));
	ck_assert_ptr_nonnull(strstr(messages(),
	        "INTFCBX: 50 waits of 1000 in all, highest 10, more than the "
	        "highest on average (10**-4 s)"));
}
END_TEST

/* A duplicate part is dropped by reassembly, so its figures are not
 * checked: the second copy's implausible bucket is not said. */
START_TEST(duplicate_part_not_checked)
{
	uint8_t rec[PART1_LEN];

	part(rec, 1, PART1_LEN);
	pm_stage_record(&t.stage, span_make(rec, sizeof rec), SOURCE, BASE_OFFSET);
	put(rec, "INTDBIRT", 100);
	put(rec, "INTDBIRH", 2500);
	put(rec, "INTDBIR#", 1);
	pm_stage_record(&t.stage, span_make(rec, sizeof rec), SOURCE, BASE_OFFSET + 240);
	ck_assert_uint_eq(t.tally.duplicate_parts, 1);
	ck_assert_uint_eq(t.tally.used, 2 * PART1_LEN);
	ck_assert_uint_eq(t.tally.implausible, 0);
	ck_assert_ptr_null(strstr(messages(), "INTDBIR"));
	reasm_finish(t.reasm);
	ck_assert_uint_eq(t.nseen, 1);
	ck_assert_uint_eq(value(&t.seen[0], "INTDBIRT"), 0); /* the first copy's */
}
END_TEST

/* A PM stream's record with the header the framer's length read: taken
 * from there; with the header of another place (k.at elsewhere), read
 * from the record's bytes. Parts 1 and 2 make one interval either way. */
START_TEST(peeked_header_taken)
{
	uint8_t one[PART1_LEN], two[PART2_LEN];
	struct pm_peeked k = { &pm, NULL, { 0 } };
	bool plausible;

	part(one, 1, PART1_LEN);
	part(two, 2, PART2_LEN);
	ck_assert_uint_eq(pmint_record_length(one, sizeof one, &plausible, &k), PART1_LEN);
	ck_assert_ptr_eq(k.at, one);
	pm_stage_peeked(&t.stage, span_make(one, sizeof one), &k, SOURCE, BASE_OFFSET);
	/* k still holds part 1's header, at another place */
	pm_stage_peeked(&t.stage, span_make(two, sizeof two), &k, SOURCE,
	                BASE_OFFSET + PART1_LEN);
	ck_assert_uint_eq(t.tally.used, PART1_LEN + PART2_LEN);
	ck_assert_uint_eq(t.tally.records[KIND_PM][5], 2);
	ck_assert_uint_eq(t.tally.damaged, 0);
	ck_assert_uint_eq(t.tally.duplicate_parts, 0);
	reasm_finish(t.reasm);
	ck_assert_uint_eq(t.nseen, 1);
	ck_assert_uint_eq(t.seen[0].parts, 0x6);
	ck_assert_uint_eq(t.seen[0].stime, T_10_00);
}
END_TEST

START_TEST(short_header_damaged)
{
	uint8_t rec[0x10] = { 0 };

	put(rec, "INTLEN", sizeof rec);
	put(rec, "INTRTYPE", 5);
	pm_stage_record(&t.stage, span_make(rec, sizeof rec), SOURCE, BASE_OFFSET);
	ck_assert_uint_eq(t.tally.damaged, 16);
	ck_assert_uint_eq(t.tally.damaged_records, 1);
	ck_assert_uint_eq(t.tally.records[KIND_PM][5], 1);
	ck_assert_ptr_nonnull(strstr(messages(), "shorter than the interval header"));
	/* two bytes: not even INTRTYPE */
	pm_stage_record(&t.stage, span_make(rec, 2), SOURCE, BASE_OFFSET + 16);
	ck_assert_uint_eq(t.tally.damaged, 18);
	ck_assert_ptr_nonnull(strstr(messages(), "record too short for a PM header"));
}
END_TEST

START_TEST(part_shorter_than_layout_damaged)
{
	uint8_t rec[PART1_LEN];

	part(rec, 1, PART1_LEN - 4);
	pm_stage_record(&t.stage, span_make(rec, PART1_LEN - 4), SOURCE, BASE_OFFSET);
	ck_assert_uint_eq(t.tally.damaged, PART1_LEN - 4);
	ck_assert_uint_eq(t.tally.used, 0);
	reasm_finish(t.reasm);
	ck_assert_uint_eq(t.nseen, 0);
}
END_TEST

START_TEST(long_part_and_version_said)
{
	uint8_t rec[PART1_LEN + 8];

	part(rec, 1, sizeof rec);
	put(rec, "INTVER#", 2);
	put(rec, "INT#TSTR", 9);
	pm_stage_record(&t.stage, span_make(rec, sizeof rec), SOURCE, BASE_OFFSET);
	ck_assert_uint_eq(t.tally.used, PART1_LEN + 8);
	ck_assert_ptr_nonnull(strstr(messages(), "part 1 is 248 bytes"));
	ck_assert_ptr_nonnull(strstr(messages(), "version 2"));
	reasm_finish(t.reasm);
	ck_assert_uint_eq(t.nseen, 1);
	ck_assert_uint_eq(value(&t.seen[0], "INT#TSTR"), 9);
}
END_TEST

START_TEST(bad_times_and_parts_damaged)
{
	uint8_t rec[PART1_LEN];

	part(rec, 4, PART1_LEN); /* no part 4 */
	pm_stage_record(&t.stage, span_make(rec, sizeof rec), SOURCE, BASE_OFFSET);
	ck_assert_uint_eq(t.diag.count[PM_E_BAD_SEQUENCE], 1);
	part(rec, 1, PART1_LEN);
	put(rec, "INTETIME", T_10_00 - 1); /* ends before it starts */
	pm_stage_record(&t.stage, span_make(rec, sizeof rec), SOURCE, BASE_OFFSET);
	ck_assert_uint_eq(t.diag.count[PM_E_END_BEFORE_START], 1);
	t.stage.max_interval = 3600 * PM_UNITS_PER_SECOND;
	part(rec, 1, PART1_LEN);
	put(rec, "INTETIME", T_10_00 + 2 * 3600 * PM_UNITS_PER_SECOND);
	pm_stage_record(&t.stage, span_make(rec, sizeof rec), SOURCE, BASE_OFFSET);
	ck_assert_uint_eq(t.tally.intervals_too_long, 1);
	ck_assert_ptr_nonnull(strstr(messages(), "7200 s; at most 3600 s"));
	ck_assert_uint_eq(t.tally.damaged, 3 * PART1_LEN);
	ck_assert_uint_eq(t.tally.damaged_records, 3);
	reasm_finish(t.reasm);
	ck_assert_uint_eq(t.nseen, 0);
}
END_TEST

/* A length that runs past the chain's end: the rest is damaged, what came
 * before is kept. */
/* Part seq of the interval of 2024-10-27 (day 301) from local time start,
 * a quarter hour long, fed as one record at offset. */
static void
feed_local(unsigned seq, uint32_t start, uint64_t offset)
{
	static const size_t len[] = { 0, PART1_LEN, PART2_LEN, PART3_LEN };
	uint8_t rec[PART2_LEN];

	part(rec, seq, len[seq]);
	put(rec, "INTSDATE", pmtime_pdate_encode(2024, 301));
	put(rec, "INTSTIME", start);
	put(rec, "INTEDATE", pmtime_pdate_encode(2024, 301));
	put(rec, "INTETIME", start + QUARTER_HOUR);
	pm_stage_record(&t.stage, span_make(rec, len[seq]), SOURCE, offset);
}

/* Europe/Berlin falls back at 03:00 on 2024-10-27: 02:30 local is 00:30
 * and 01:30 UTC. After 02:45 (00:45 UTC), 02:30 is the later copy, for
 * each of its parts; in a new input, with nothing before it, the first
 * copy again, though the part before had the same times. */
START_TEST(repeated_times_follow_the_stream)
{
	const int64_t minute = 60 * PM_UNITS_PER_SECOND;
	int64_t last_start[SOURCE + 1];
	pm_status st;
	struct tzone *z = tzone_open("Europe/Berlin", &st);

	ck_assert_ptr_nonnull(z);
	t.stage.zone = z;
	t.stage.last_start = last_start;
	t.stage.nsources = SOURCE + 1;
	pm_stage_new_input(&t.stage);
	feed_local(1, 11 * QUARTER_HOUR, BASE_OFFSET);        /* 02:45 */
	for (unsigned p = 1; p <= 3; p++)
		feed_local(p, 10 * QUARTER_HOUR, BASE_OFFSET + 256 * p);  /* 02:30 */
	pm_stage_new_input(&t.stage);
	feed_local(1, 10 * QUARTER_HOUR, BASE_OFFSET + 1024);
	reasm_finish(t.reasm);
	tzone_close(z);

	ck_assert_uint_eq(t.nseen, 3);
	ck_assert_uint_eq(t.seen[0].parts, 0x2);
	ck_assert_uint_eq(t.seen[1].parts, 0xE);
	ck_assert_uint_eq(t.seen[2].parts, 0x2);
	/* 00:45, 01:30 and 00:30 UTC */
	ck_assert_int_eq(t.seen[1].start - t.seen[0].start, 45 * minute);
	ck_assert_int_eq(t.seen[1].end - t.seen[1].start, 15 * minute);
	ck_assert_int_eq(t.seen[2].start - t.seen[0].start, -15 * minute);
	ck_assert_int_eq(t.seen[2].end - t.seen[2].start, 15 * minute);
	ck_assert_uint_eq(t.tally.intervals_complete, 1);
	ck_assert_uint_eq(t.tally.intervals_incomplete, 2);
}
END_TEST

START_TEST(chain_bad_length_ends_walk)
{
	uint8_t buf[PART1_LEN + 6] = { 0 };

	part(buf, 1, PART1_LEN);
	put(buf + PART1_LEN, "INTLEN", 0x300);
	ck_assert_uint_eq(pm_stage_chain(&t.stage, span_make(buf, sizeof buf), SOURCE,
	                                 BASE_OFFSET), sizeof buf);
	ck_assert_uint_eq(t.tally.used, PART1_LEN);
	ck_assert_uint_eq(t.tally.damaged, 6);
	ck_assert_ptr_nonnull(strstr(messages(), "rest of the record skipped"));
}
END_TEST

static Suite *
pm_stage_suite(void)
{
	Suite *s = suite_create("pm_stage");
	TCase *tc = tcase_create("records");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, chain_makes_one_interval);
	tcase_add_test(tc, implausible_buckets_said);
	tcase_add_test(tc, duplicate_part_not_checked);
	tcase_add_test(tc, peeked_header_taken);
	tcase_add_test(tc, short_header_damaged);
	tcase_add_test(tc, part_shorter_than_layout_damaged);
	tcase_add_test(tc, long_part_and_version_said);
	tcase_add_test(tc, bad_times_and_parts_damaged);
	tcase_add_test(tc, chain_bad_length_ends_walk);
	tcase_add_test(tc, repeated_times_follow_the_stream);
	suite_add_tcase(s, tc);
	return s;
}

Suite *
unit_suite(void)
{
	char err[160];

	if (pmint_load(&pm, err, sizeof err) != PM_OK) {
		fprintf(stderr, "check_pm_stage: %s\n", err);
		exit(EXIT_FAILURE);
	}
	return pm_stage_suite();
}
