/* smfhdr.c: the SMF record header. See smfhdr.h. */
#include <stdio.h>

#include "core/bytes.h"
#include "core/layout_text.h"
#include "pmim/pmtime.h"
#include "smf/smfhdr.h"

static pm_status
need(const struct smfhdr *h, const char *name, const struct cb_field **f,
     char *err, size_t errlen)
{
	int i;
	pm_status st = layout_need_field(&h->lay, name, &i, err, errlen);

	*f = st == PM_OK ? &h->lay.fields[i] : NULL;
	return st;
}

pm_status
smfhdr_load(struct smfhdr *h, char *err, size_t errlen)
{
	long std_len, ext_len;
	pm_status st;

	if ((st = layout_parse(smfhdr_listing, "(built-in)/smfhdr.lst", NULL, NULL,
	                       &h->lay, err, errlen)) != PM_OK)
		return st;
	if ((st = need(h, "SMFLEN", &h->len, err, errlen)) != PM_OK ||
	    (st = need(h, "SMFSEG", &h->seg, err, errlen)) != PM_OK ||
	    (st = need(h, "SMFFLG", &h->flg, err, errlen)) != PM_OK ||
	    (st = need(h, "SMFRTY", &h->rty, err, errlen)) != PM_OK ||
	    (st = need(h, "SMFTME", &h->tme, err, errlen)) != PM_OK ||
	    (st = need(h, "SMFDTE", &h->dte, err, errlen)) != PM_OK ||
	    (st = need(h, "SMFSID", &h->sid, err, errlen)) != PM_OK ||
	    (st = need(h, "SMFSSI", &h->ssi, err, errlen)) != PM_OK ||
	    (st = need(h, "SMFSTY", &h->sty, err, errlen)) != PM_OK ||
	    (st = layout_need_equate(&h->lay, "SMFHDRLN", &std_len, err, errlen)) != PM_OK ||
	    (st = layout_need_equate(&h->lay, "SMFXHDLN", &ext_len, err, errlen)) != PM_OK ||
	    (st = layout_need_equate(&h->lay, "SMF$STY", &h->ext_flag, err, errlen)) != PM_OK) {
		smfhdr_free(h);
		return st;
	}
	h->std_len = (size_t)std_len;
	h->ext_len = (size_t)ext_len;
	return PM_OK;
}

void
smfhdr_free(struct smfhdr *h)
{
	layout_free(&h->lay);
}

bool
smfhdr_plausible(const uint8_t *p, size_t avail, void *ctx)
{
	const struct smfhdr *h = ctx;
	struct span s = span_make(p, avail);
	uint32_t time, date;
	int year, yday;

	return be_u32(s, h->tme->offset, &time) && time < 86400 * 100 &&
	       be_u32(s, h->dte->offset, &date) &&
	       pmtime_pdate_decode(date, &year, &yday) == PM_OK && year < 2200;
}
