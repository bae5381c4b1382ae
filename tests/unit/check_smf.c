/* check_smf.c: the SMF stage. SMF records are built here through the SMF
 * header and #PMINTDS layouts (an RDW, the standard header, a product
 * header of EBCDIC text, a chain of PM records) and handed to the stage
 * as the framer hands them; the chain found, the source named, the
 * intervals and the byte accounting are worked out by hand. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "check_main.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/bytes.h"
#include "core/diag.h"
#include "core/sources.h"
#include "core/tally.h"
#include "pmim/pm_stage.h"
#include "pmim/pmtime.h"
#include "pmim/reasm.h"
#include "smf/smf.h"
#include "smf/smfhdr.h"

#define REC_OFFSET 5000
#define PRODUCT_HEADER 24
#define T_10_00 360000000u   /* 10:00:00 in 10**-4 s */
#define QUARTER_HOUR 9000000u
#define PART1_LEN 0xF0
#define PART2_LEN 0xF4
#define PART3_LEN 0xC0
#define REC_MAX 1024

static struct pmint pm;
static struct smfhdr hdr;

static struct {
	struct diag diag;
	struct tally tally;
	FILE *out;
	char *msg;
	size_t msglen;
	struct sources names;
	struct reasm *reasm;
	struct pm_stage stage;
	struct smf_reader *smf;
	struct smf_opts opts;
	struct interval seen[4];
	uint64_t seen_figures[4][CB_MAX_FIELDS]; /* reassembly reuses its own */
	size_t nseen;
} t;

static void
on_interval(const struct interval *iv, void *ctx)
{
	(void)ctx;
	ck_assert_uint_lt(t.nseen, 4);
	t.seen[t.nseen] = *iv;
	t.seen[t.nseen].v = t.seen_figures[t.nseen];
	memcpy(t.seen_figures[t.nseen], iv->v, pm.lay.nfields * sizeof *iv->v);
	t.nseen++;
}

static void
open_stages(void)
{
	struct reasm_opts o = { 8, 0, NULL, NULL };

	t.out = open_memstream(&t.msg, &t.msglen);
	ck_assert_ptr_nonnull(t.out);
	diag_init(&t.diag, "pmimrpt", t.out);
	t.diag.file = "test.dat";
	t.diag.max_per_status = 0;
	ck_assert_int_eq(sources_init(&t.names, 16), PM_OK);
	ck_assert_int_eq(reasm_open(&t.reasm, &pm, &o, on_interval, NULL, &t.diag,
	                            &t.tally), PM_OK);
	t.stage.pm = &pm;
	t.stage.reasm = t.reasm;
	t.stage.diag = &t.diag;
	t.stage.tally = &t.tally;
	t.stage.max_interval = PM_UNITS_PER_DAY;
	ck_assert_int_eq(smf_open(&t.smf, &t.opts, &pm, &hdr, &t.names, &t.diag), PM_OK);
}

static void
setup(void)
{
	memset(&t, 0, sizeof t);
	t.opts.type = 230;
	t.opts.pm_offset = -1;
	t.opts.codepage = "IBM-037";
	open_stages();
}

static void
teardown(void)
{
	smf_close(t.smf);
	reasm_close(t.reasm);
	sources_free(&t.names);
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
put(const struct layout *lay, uint8_t *rec, const char *name, uint64_t v)
{
	const struct cb_field *f = layout_field(lay, name);
	ck_assert_msg(f != NULL, "no field %s", name);
	put_be(rec + f->offset, (unsigned)f->length, v);
}

static size_t
part(uint8_t *rec, unsigned seq, size_t len)
{
	memset(rec, 0, len);
	put(&pm.lay, rec, "INTLEN", len);
	put(&pm.lay, rec, "INTRTYPE", 5);
	put(&pm.lay, rec, "INTSEQ#", seq);
	put(&pm.lay, rec, "INTVER#", 1);
	put(&pm.lay, rec, "INTSDATE", pmtime_pdate_encode(2024, 100));
	put(&pm.lay, rec, "INTSTIME", T_10_00);
	put(&pm.lay, rec, "INTEDATE", pmtime_pdate_encode(2024, 100));
	put(&pm.lay, rec, "INTETIME", T_10_00 + QUARTER_HOUR);
	return len;
}

/* An SMF record of type from system SYSA: RDW, standard header, then
 * body; its length set in the RDW. */
static size_t
build_smf(uint8_t *rec, unsigned type, const uint8_t *body, size_t body_len)
{
	static const uint8_t sysa[4] = { 0xE2, 0xE8, 0xE2, 0xC1 }; /* EBCDIC */
	size_t len = hdr.std_len + body_len;

	ck_assert_uint_le(len, REC_MAX);
	memset(rec, 0, hdr.std_len);
	put(&hdr.lay, rec, "SMFLEN", len);
	put(&hdr.lay, rec, "SMFRTY", type);
	put(&hdr.lay, rec, "SMFTME", 3600 * 100);
	put(&hdr.lay, rec, "SMFDTE", pmtime_pdate_encode(2024, 100));
	memcpy(rec + hdr.sid->offset, sysa, sizeof sysa);
	if (body_len)
		memcpy(rec + hdr.std_len, body, body_len);
	return len;
}

/* A product header of EBCDIC blanks, then the three parts. */
static size_t
pm_body(uint8_t *body)
{
	size_t n = PRODUCT_HEADER;

	memset(body, 0x40, PRODUCT_HEADER);
	n += part(body + n, 1, PART1_LEN);
	put(&pm.lay, body + PRODUCT_HEADER, "INT#TSTR", 42);
	n += part(body + n, 2, PART2_LEN);
	n += part(body + n, 3, PART3_LEN);
	return n;
}

static void
feed(const uint8_t *rec, size_t len, uint64_t offset)
{
	struct fr_record fr = { offset, rec, len, rec, len < FR_HEAD_MAX ? len : FR_HEAD_MAX,
	                        len, 1, true };
	smf_record(t.smf, &fr, &t.stage);
}

START_TEST(chain_found_after_product_header)
{
	uint8_t body[REC_MAX], rec[REC_MAX];
	size_t len = build_smf(rec, 230, body, pm_body(body));
	int f = layout_field_index(&pm.lay, "INT#TSTR");

	feed(rec, len, REC_OFFSET);
	reasm_finish(t.reasm);
	ck_assert_uint_eq(t.nseen, 1);
	ck_assert_str_eq(sources_name(&t.names, t.seen[0].source), "SYSA");
	ck_assert_uint_eq(t.seen[0].parts, 0xE);
	/* the first part's file offset: the record's, its 18-byte header and
	 * the 24 bytes of product header on */
	ck_assert_uint_eq(t.seen[0].offset, REC_OFFSET + hdr.std_len + PRODUCT_HEADER);
	ck_assert_uint_eq(t.seen[0].v[f], 42);
	/* every byte used: header and product header by the SMF stage, the
	 * 676 bytes of parts by the PM stage */
	ck_assert_uint_eq(t.tally.used, len);
	ck_assert_uint_eq(t.tally.bytes[KIND_PM][5], 676);
	ck_assert_uint_eq(t.tally.records[KIND_SMF][230], 1);
	ck_assert_uint_eq(t.tally.records[KIND_PM][5], 3);
	ck_assert_str_eq(messages(), "");
}
END_TEST

START_TEST(forced_pm_offset)
{
	uint8_t body[REC_MAX], rec[REC_MAX];
	size_t len = build_smf(rec, 230, body, pm_body(body));

	teardown();
	memset(&t, 0, sizeof t);
	t.opts.type = 230;
	t.opts.codepage = "IBM-037";
	t.opts.pm_offset = (long)(hdr.std_len + PRODUCT_HEADER);
	open_stages();
	feed(rec, len, REC_OFFSET);
	reasm_finish(t.reasm);
	ck_assert_uint_eq(t.nseen, 1);
	ck_assert_uint_eq(t.tally.used, len);
}
END_TEST

START_TEST(other_types_skipped)
{
	uint8_t body[40], rec[REC_MAX];
	size_t len;

	memset(body, 0x40, sizeof body);
	len = build_smf(rec, 30, body, sizeof body);
	ck_assert(!smf_want(rec, len, t.smf));
	feed(rec, len, REC_OFFSET);
	ck_assert_uint_eq(t.tally.skipped, len);
	ck_assert_uint_eq(t.tally.records[KIND_SMF][30], 1);
	ck_assert_uint_eq(t.tally.bytes[KIND_SMF][30], len);
	len = build_smf(rec, 230, body, sizeof body);
	ck_assert(smf_want(rec, len, t.smf));
}
END_TEST

/* Text where PM records should be: no chain fits, the record is damaged. */
START_TEST(no_chain_damaged)
{
	uint8_t body[64], rec[REC_MAX];
	size_t len;

	memset(body, 0x40, sizeof body);
	len = build_smf(rec, 230, body, sizeof body);
	feed(rec, len, REC_OFFSET);
	ck_assert_uint_eq(t.tally.damaged, len);
	ck_assert_uint_eq(t.tally.damaged_records, 1);
	ck_assert_ptr_nonnull(strstr(messages(), "SMF type 230 record of 78 bytes skipped"));
}
END_TEST

START_TEST(short_header_damaged)
{
	uint8_t rec[REC_MAX];
	size_t len = build_smf(rec, 230, NULL, 0);

	feed(rec, len - 4, REC_OFFSET);
	ck_assert_uint_eq(t.tally.damaged, len - 4);
	ck_assert_ptr_nonnull(strstr(messages(), "14 bytes, header needs 18"));
}
END_TEST

START_TEST(dump_header_without_trailer)
{
	uint8_t rec[REC_MAX];
	size_t len = build_smf(rec, 2, NULL, 0);

	feed(rec, len, REC_OFFSET);
	smf_input_end(t.smf, REC_OFFSET + len);
	ck_assert_uint_eq(t.diag.count[PM_E_NO_DUMP_TRAILER], 1);
	ck_assert_ptr_nonnull(strstr(messages(), "the dump from offset 5000"));
	/* with its trailer, nothing is said */
	feed(rec, len, REC_OFFSET);
	len = build_smf(rec, 3, NULL, 0);
	feed(rec, len, REC_OFFSET + len);
	smf_input_end(t.smf, REC_OFFSET + 2 * len);
	ck_assert_uint_eq(t.diag.count[PM_E_NO_DUMP_TRAILER], 1);
}
END_TEST

static Suite *
smf_suite(void)
{
	Suite *s = suite_create("smf");
	TCase *tc = tcase_create("records");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, chain_found_after_product_header);
	tcase_add_test(tc, forced_pm_offset);
	tcase_add_test(tc, other_types_skipped);
	tcase_add_test(tc, no_chain_damaged);
	tcase_add_test(tc, short_header_damaged);
	tcase_add_test(tc, dump_header_without_trailer);
	suite_add_tcase(s, tc);
	return s;
}

Suite *
unit_suite(void)
{
	char err[160];

	if (pmint_load(&pm, err, sizeof err) != PM_OK ||
	    smfhdr_load(&hdr, err, sizeof err) != PM_OK) {
		fprintf(stderr, "check_smf: %s\n", err);
		exit(EXIT_FAILURE);
	}
	return smf_suite();
}
