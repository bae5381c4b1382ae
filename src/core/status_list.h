/* status_list.h: every status pmimrpt can report, as one X-macro list, so the
 * enum, the message table and the exit-code mapping cannot drift apart.
 *
 * S(name, class, message)
 *   class: OK, WARN (a warning: exit code 4), INPUT (input not processed to
 *   its end: 8), USAGE (12), OUTPUT (16). */
S(PM_OK,               OK,     "success")
/* framing */
S(PM_E_TRUNCATED,      WARN,   "record cut short at end of input")
S(PM_E_BAD_DESCRIPTOR, WARN,   "invalid record or block descriptor word")
S(PM_E_BAD_BLOCK,      WARN,   "block contents do not match its descriptor")
S(PM_E_ORPHAN_SEGMENT, WARN,   "orphan segment: a middle or last segment with no first")
S(PM_E_UNENDED_SPAN,   WARN,   "spanned record has a first segment but no last")
S(PM_E_RESYNC,         WARN,   "bytes skipped while looking for the next valid record")
S(PM_E_RECORD_TOO_LONG, WARN,  "logical record longer than --max-record allows")
S(PM_E_NO_FRAMING,     INPUT,  "cannot recognise the input's framing")
S(PM_E_FRAMING_CHANGED, WARN,  "the input's framing changes part-way")
/* SMF */
S(PM_E_SMF_HEADER,     WARN,   "SMF record too short for its header")
S(PM_E_NO_PM_OFFSET,   WARN,   "no offset found where a chain of PM records fills the SMF record")
S(PM_E_PM_CHAIN,       WARN,   "PM record chain does not end at the end of the SMF record")
S(PM_E_NO_DUMP_TRAILER, WARN,  "no dump trailer: the dump may be truncated")
S(PM_E_CODEPAGE,       USAGE,  "code page not supported by iconv")
/* PM records */
S(PM_E_PM_LENGTH,      WARN,   "PM record length out of range")
S(PM_E_SHORT_PART,     WARN,   "PM record shorter than its part's layout")
S(PM_E_BAD_SEQUENCE,   WARN,   "interval record with an unknown part number (INTSEQ#)")
S(PM_E_BAD_DATE,       WARN,   "invalid packed date")
S(PM_E_BAD_TIME,       WARN,   "time of day out of range")
S(PM_E_END_BEFORE_START, WARN, "interval ends before it starts")
S(PM_E_INTERVAL_TOO_LONG, WARN, "interval longer than --max-interval")
S(PM_E_LONG_PART,      WARN,   "PM record longer than its part's layout; known fields decoded")
S(PM_E_UNKNOWN_VERSION, WARN,  "PM record of an unknown version; known fields decoded")
S(PM_E_IMPLAUSIBLE,    WARN,   "implausible figures in an interval record")
/* Windows performance data */
S(PM_E_PERF_BLOCK,     WARN,   "PERF_DATA_BLOCK breaks a validation rule; skipped")
S(PM_E_PERF_NAMES,     USAGE,  "cannot read the title table (--perf-names)")
S(PM_E_PERF_REPORT,    USAGE,  "the report does not read this kind of input")
/* reassembly */
S(PM_E_DUPLICATE_PART, WARN,   "duplicate part of an interval; first copy kept")
S(PM_E_INCOMPLETE,     WARN,   "interval is missing parts")
S(PM_E_DUPLICATE_INTERVAL, WARN, "duplicate interval: time already covered; left out")
S(PM_E_OVERLAP_INTERVAL, WARN,  "interval overlaps time already covered, off its boundaries; left out")
S(PM_E_COVERAGE_LIMIT, WARN,   "too many separate ranges of time to check for duplicates; new time not remembered (see --max-coverage)")
S(PM_E_PENDING_LIMIT,  WARN,   "too many pending intervals; oldest emitted incomplete (see --max-pending)")
S(PM_E_PENDING_MEMORY, USAGE,  "the memory --max-pending asks for cannot be allocated")
S(PM_E_SOURCE_LIMIT,   INPUT,  "too many distinct sources (see --max-sources)")
S(PM_E_GROUP_LIMIT,    INPUT,  "too many report groups (see --max-groups)")
/* selection */
S(PM_E_NOTHING_SELECTED, WARN,  "nothing selected")
/* counter engine */
S(PM_E_NO_VALUE,       WARN,   "counter has no value: zero or negative denominator, or negative delta")
S(PM_E_NOT_DISPLAYED,  USAGE,  "counter type has no displayable value")
/* configuration, layouts and report definitions */
S(PM_E_USAGE,          USAGE,  "usage error")
S(PM_E_LAYOUT,         USAGE,  "error in a copybook layout")
S(PM_E_DEFINITION,     USAGE,  "error in a report definition")
/* system */
S(PM_E_NOMEM,          INPUT,  "out of memory")
S(PM_E_OPEN,           INPUT,  "cannot open input")
S(PM_E_READ,           INPUT,  "read error")
S(PM_E_DECOMPRESS,     INPUT,  "compressed input damaged; what was decoded before is kept")
S(PM_E_TRAILING_GARBAGE, WARN, "bytes after the end of the compressed data; ignored")
S(PM_E_WRITE,          OUTPUT, "write error")
S(PM_E_SPILL,          WARN,   "cannot write report groups to a temporary file; held in memory")
S(PM_E_PARTIAL,        INPUT,  "not a sound partial file: refused")
S(PM_E_PARTIAL_MISMATCH, USAGE, "partial made with other report options: refused")
S(PM_E_PARTIAL_OVERLAP, WARN,  "partials hold the same time of a source")
S(PM_E_ACCOUNTING,     INPUT,  "internal error: input bytes not all accounted for")
