/* fuzz_rptdef.c: libFuzzer harness for the report-definition parser: the
 * input is the text of a definition, handed to the parser as rptload hands
 * it a file's contents (NUL-terminated). An error must come with its
 * "file:line: " message; a definition that parses must be consistent. */
#include <stdlib.h>
#include <string.h>

#include "pmim/binding.h"
#include "pmim/pmint.h"
#include "report/rptdef.h"

#define TEXT_MAX (1u << 16)

static struct pmint pm;
static struct schema *schema;
static struct rpt_def def;
static char text[TEXT_MAX + 1];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	pm_status st;

	if (!schema && (pmint_load(&pm, err, sizeof err) != PM_OK ||
	                binding_schema_open(&schema, &pm, err, sizeof err) != PM_OK))
		abort();
	if (size > TEXT_MAX)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	err[0] = '\0';
	st = rptdef_parse(&def, "fuzz", text, "fuzz.rpt", schema, err, sizeof err);
	if (st != PM_OK) {
		if (st != PM_E_DEFINITION && st != PM_E_NOMEM)
			abort();
		if (st == PM_E_DEFINITION && strncmp(err, "fuzz.rpt:", 9) != 0)
			abort(); /* every error names the file and line */
	} else if (def.ncols > RPT_MAX_COLUMNS ||
	           def.ntop > sizeof def.top_cols / sizeof def.top_cols[0]) {
		abort();
	}
	return 0;
}
