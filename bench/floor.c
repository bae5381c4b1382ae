/* floor.c: a lower bound for the waits report, not a program. It walks a
 * stream of PM records by INTLEN and adds each wait bucket's sum, highest
 * and count into one total a bucket: no reassembly, no dates, no sources,
 * no checks beyond a record's length. bench/run.sh times it beside
 * pmimrpt on the same dense stream.
 *
 * Where the fields are comes from `pmimrpt --describe` (the copybook), not
 * from here: a triple is the three fields described "SUM OF WAIT TIMES",
 * "HIGHEST WAIT TIME" and "# WAITS", in that order, in one part, and a
 * record's part is its INTSEQ#.
 *
 * Usage: floor DESCRIBE-OUTPUT PM-STREAM; prints the totals. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_BUCKETS 256
#define MAX_PARTS 8

struct triple { unsigned part, t, h, n; };

static struct triple buckets[MAX_BUCKETS];
static unsigned nbuckets, len_at, seq_at;
/* per part, its buckets' offsets, for the loop */
static unsigned part_first[MAX_PARTS + 1], part_count[MAX_PARTS + 1];

static void
read_layout(const char *path)
{
	FILE *fp = fopen(path, "r");
	char line[512], name[64], desc[256];
	unsigned part, off, len, pending = 0;

	if (!fp) {
		perror(path);
		exit(2);
	}
	while (fgets(line, sizeof line, fp)) {
		if (sscanf(line, "%63s %u X'%x' %u %*s %255[^\n]", name, &part, &off, &len, desc) != 5)
			continue;
		if (strcmp(name, "INTLEN") == 0)
			len_at = off;
		else if (strcmp(name, "INTSEQ#") == 0)
			seq_at = off;
		else if (strstr(desc, "SUM OF WAIT TIMES") && nbuckets < MAX_BUCKETS)
			buckets[nbuckets] = (struct triple){ part, off, 0, 0 }, pending = 1;
		else if (pending == 1 && strstr(desc, "HIGHEST WAIT TIME"))
			buckets[nbuckets].h = off, pending = 2;
		else if (pending == 2 && strstr(desc, "# WAITS"))
			buckets[nbuckets++].n = off, pending = 0;
	}
	fclose(fp);
	/* the describe table lists each part's fields together */
	for (unsigned i = 0; i < nbuckets; i++) {
		unsigned p = buckets[i].part;
		if (p > MAX_PARTS)
			continue;
		if (!part_count[p])
			part_first[p] = i;
		part_count[p]++;
	}
}

static inline uint32_t
be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

int
main(int argc, char **argv)
{
	static uint8_t buf[1 << 20];
	static uint64_t sum[MAX_BUCKETS], count[MAX_BUCKETS];
	static uint32_t high[MAX_BUCKETS];
	size_t have = 0;
	ssize_t got;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: floor DESCRIBE-OUTPUT PM-STREAM\n");
		return 2;
	}
	read_layout(argv[1]);
	if ((fd = open(argv[2], O_RDONLY)) < 0) {
		perror(argv[2]);
		return 2;
	}
	while ((got = read(fd, buf + have, sizeof buf - have)) > 0) {
		size_t at = 0;
		have += (size_t)got;
		while (at + len_at + 2 <= have) {
			const uint8_t *r = buf + at;
			unsigned len = (unsigned)r[len_at] << 8 | r[len_at + 1], part;
			if (len < 4 || at + len > have)
				break;
			part = r[seq_at];
			if (part <= MAX_PARTS)
				for (unsigned i = part_first[part], e = i + part_count[part]; i < e; i++) {
					const struct triple *b = &buckets[i];
					uint32_t h;
					if (b->n + 4 > len)
						break;
					sum[i] += be32(r + b->t);
					h = be32(r + b->h);
					high[i] = h > high[i] ? h : high[i];
					count[i] += be32(r + b->n);
				}
			at += len;
		}
		memmove(buf, buf + at, have - at);
		have -= at;
	}
	close(fd);
	for (unsigned i = 0; i < nbuckets; i++)
		printf("%u %llu %u %llu\n", i, (unsigned long long)sum[i], high[i],
		       (unsigned long long)count[i]);
	return 0;
}
