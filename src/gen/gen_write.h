/* gen_write.h: how pmimgen turns what it generated into bytes: PM records
 * and SMF records encoded through the copybook layouts, the framings
 * (FORMATS.md 2) with the inventory of what was written, and the truth CSV.
 *
 * Framing follows a VBS dataset as IFASMFDP writes it: logical records go
 * into blocks of at most block_size bytes (BDW included); a record that
 * does not fit in what is left of a block is spanned, as segments with
 * codes first, middle and last, and no segment exceeds GEN_SEG_MAX. The `bdw`
 * framing writes the blocks; `rdw` writes the same segments without their
 * BDWs, as FTP with SITE RDW leaves them. */
#ifndef GEN_WRITE_H
#define GEN_WRITE_H

#include "core/tzone.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/copybook.h"
#include "gen/gen_model.h"
#include "pmim/pmint.h"
#include "smf/smfhdr.h"
#include "core/status.h"

#define GEN_DESC_LEN 4            /* RDW, SDW and BDW */
#define GEN_BLOCK_MAX 32760       /* BLKSIZE without extended BDWs */
#define GEN_XBLOCK_MAX (16u << 20) /* largest block pmimgen writes */
#define GEN_SEG_MAX 32756         /* largest segment, SDW included */
/* The product header between the SMF header and the first PM record is
 * pmimgen's own (IDMS's #PMSMHDS is not public): "PMIM" and the CV name,
 * both EBCDIC, then a record number in zoned decimal and EBCDIC noise. */
#define GEN_PH_MIN 12
#define GEN_PH_MAX 1024
#define GEN_PH_CV_OFFSET 4        /* the CV name within the product header */
/* Records of PM data stay below 16 KiB: every byte of the product header
 * is at least X'40', so every halfword starting in it exceeds the record's
 * length, and no chain of PM records can start before the real one. */
#define GEN_PM_SMF_MAX 16383
#define GEN_OTHER_SMF_MAX 40000  /* longest record of another type */

/* GEN_PERF is Windows performance data instead (gen_perf.h). */
enum gen_framing { GEN_PM, GEN_RDW_PM, GEN_RDW, GEN_BDW, GEN_PERF };

/* Which blocks get an extended BDW (large block interface): none; those
 * longer than GEN_BLOCK_MAX, as QSAM does; or every one, as a BSAM
 * program may. */
enum gen_xbdw { GEN_XBDW_NONE, GEN_XBDW_LARGE, GEN_XBDW_ALL };

/* The SMF header is the reader's binding (smf/smfhdr.h); the framing
 * writes the RDW itself, so the listing must agree on where it is. */
pm_status gen_smf_check(const struct smfhdr *s, char *err, size_t errlen);

/* What was written: logical records by kind and type, with their bytes;
 * segments by segment code; blocks. */
struct gen_inventory {
	uint64_t smf_records[256], smf_bytes[256]; /* bytes incl. descriptors */
	uint64_t pm_records[256], pm_bytes[256];   /* INTLEN bytes */
	uint64_t segments[4], segment_bytes[4];    /* by code; RDWs are code 0 */
	uint64_t blocks, block_bytes;              /* BDW included */
};

/* Random bytes to copy into the bodies of records nobody decodes: cheaper
 * than drawing every byte. */
struct gen_filler {
	uint8_t *bytes;
	size_t len;
};

pm_status gen_filler_init(struct gen_filler *f, struct gen_rng *r);
void gen_filler_copy(const struct gen_filler *f, struct gen_rng *r, uint8_t *dst,
                     size_t n);
void gen_filler_free(struct gen_filler *f);

struct gen_writer {
	FILE *fp;
	uint8_t *buf;            /* output buffer */
	size_t len, cap;
	uint64_t flushed;        /* bytes handed to fp */
	int error;               /* errno of the first failed write; 0 none */
	enum gen_framing framing;
	size_t block_size;       /* BDW included */
	enum gen_xbdw xbdw;
	uint8_t *block;          /* bdw: the block being filled */
	size_t block_used;       /* bytes of the current block, BDW included */
	struct gen_inventory inv;
};

pm_status gen_write_open(struct gen_writer *w, FILE *fp, enum gen_framing framing,
                         size_t block_size, enum gen_xbdw xbdw);
/* A PM record of type `type` (pm and rdw-pm framings). */
void gen_write_pm_record(struct gen_writer *w, unsigned type, const uint8_t *rec,
                         size_t len);
/* A logical SMF record of type `type`, len bytes whose first GEN_DESC_LEN
 * bytes are the place of its RDW (rdw and bdw framings). */
void gen_write_smf_record(struct gen_writer *w, unsigned type, const uint8_t *rec,
                          size_t len);
/* Count a PM record written inside an SMF record. */
void gen_write_count_pm(struct gen_writer *w, unsigned type, size_t len);
/* Bytes written so far, buffered ones included. */
uint64_t gen_write_bytes(const struct gen_writer *w);
/* Write what is pending. PM_E_WRITE (errno in w->error) on any failure. */
pm_status gen_write_close(struct gen_writer *w);

/* EBCDIC (code page 037) for names: A-Z, 0-9, @ # $. */
bool gen_ebcdic_name_ok(const char *text, size_t max);
/* text into width bytes, padded with EBCDIC blanks. */
void gen_ebcdic_put(uint8_t *dst, size_t width, const char *text);

/* Part `part` of interval iv into dst (pm->part_len[part] bytes); its
 * times as the local clock of zone shows them (NULL: as they are). */
void gen_enc_interval_part(const struct pmint *pm, const struct gen_interval *iv,
                           unsigned part, uint8_t *dst, const struct tzone *zone);
/* A PM record of another type, dated at stamp; returns its length and
 * sets *type. */
size_t gen_enc_other_pm(const struct pmint *pm, uint8_t *dst, int64_t stamp,
                        struct gen_rng *r, const struct gen_filler *f,
                        unsigned *type);
/* The SMF header of rec: standard, or extended when ssi is not NULL.
 * Returns the header's length. */
size_t gen_enc_smf_header(const struct smfhdr *s, uint8_t *rec, unsigned type,
                          int64_t stamp, const char *sysid, const char *ssi,
                          unsigned subtype);
/* The product header between the SMF header and the first PM record:
 * len >= GEN_PH_MIN bytes, all EBCDIC text; cv may be "". */
void gen_enc_product_header(uint8_t *dst, size_t len, const char *cv,
                            uint64_t seqno, struct gen_rng *r);
/* An SMF record of another type than `exclude` into rec (room for
 * GEN_OTHER_SMF_MAX bytes); returns its length and sets *type. */
size_t gen_enc_other_smf(const struct smfhdr *s, uint8_t *rec, unsigned exclude,
                         int64_t stamp, const char *sysid, struct gen_rng *r,
                         const struct gen_filler *f, unsigned *type);

/* The truth CSV (see pmimgen.1): header line, and one row per interval. */
void gen_truth_header(FILE *fp, const struct pmint *pm);
void gen_truth_row(FILE *fp, const struct pmint *pm, const char *source,
                   const struct gen_interval *iv, unsigned parts,
                   const struct tzone *zone);

/* The inventory CSV: kind,type,records,bytes. */
void gen_inventory_csv(FILE *fp, const struct gen_inventory *inv, uint64_t total);

#endif
