#!/usr/bin/env python3
"""json_compare.py CSV JSON: whether the JSON lines file JSON holds the
rows of the CSV file CSV (pmimrpt's two formats of one report), field by
field. Each line must be valid UTF-8 and one JSON object whose keys are
the CSV header's names, in order, each once; an empty CSV field is null,
a JSON number has exactly the CSV field's digits, a JSON string is the
CSV field's text, or "" for an empty one (its bytes as UTF-8, every
ill-formed sequence one U+FFFD as Python decodes them); and each line
must be the bytes Python writes for what it parsed (json.dumps with
ensure_ascii=False, no blanks), so that the escapes are checked byte for
byte. Prints what differs and exits 1; exits 0 when all agree, printing
the rows, numbers, strings and nulls compared."""
import csv
import json
import sys


class Number(str):
    """A JSON number's text, as it was written."""


def no_constant(name):
    raise ValueError("not JSON: " + name)


def pairs(items):
    keys = [k for k, _ in items]
    if len(set(keys)) != len(keys):
        raise ValueError("a key twice")
    return items


def dumps(s):
    return json.dumps(s, ensure_ascii=False)


def main(csv_path, json_path):
    # latin-1 keeps the bytes: they are decoded as UTF-8 below, field by field
    with open(csv_path, newline="", encoding="latin-1") as f:
        rows = list(csv.reader(f))
    header, rows = rows[0], rows[1:]
    with open(json_path, "rb") as f:
        lines = f.read().split(b"\n")
    if lines[-1] != b"":
        print("the last line does not end in LF")
        return 1
    lines = lines[:-1]
    if len(lines) != len(rows):
        print("%d JSON lines for %d CSV rows" % (len(lines), len(rows)))
        return 1
    counts = {"numbers": 0, "strings": 0, "nulls": 0}
    for n, (line, row) in enumerate(zip(lines, rows), 1):
        obj = json.loads(line.decode("utf-8", "strict"), parse_int=Number,
                         parse_float=Number, parse_constant=no_constant,
                         object_pairs_hook=pairs)
        if [k for k, _ in obj] != header:
            print("line %d: keys %s, not the header %s" % (n, [k for k, _ in obj], header))
            return 1
        again = "{%s}" % ",".join(dumps(k) + ":" + (
            "null" if v is None else v if isinstance(v, Number) else dumps(v)) for k, v in obj)
        if again.encode("utf-8") != line:
            print("line %d: not as json.dumps writes it:\n%r\n%r" % (n, line, again.encode("utf-8")))
            return 1
        for (key, value), field in zip(obj, row):
            text = field.encode("latin-1").decode("utf-8", "replace")
            if value is None:
                ok, kind = field == "", "nulls"
            elif isinstance(value, Number):
                ok, kind = value == field, "numbers"
            elif isinstance(value, str):
                ok, kind = value == text, "strings"
            else:
                ok, kind = False, ""
            if not ok:
                print("line %d, %s: JSON %r, CSV %r" % (n, key, value, field))
                return 1
            counts[kind] += 1
    print("%d rows: %d numbers, %d strings, %d nulls" % (len(rows), counts["numbers"],
                                                         counts["strings"], counts["nulls"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
