/* png_colours.c: what tests/browser.sh asks of a screenshot, read with
 * Cairo's PNG reader: for each colour R,G,B given, the pixels within 8 of
 * it in every channel ("R,G,B N"), then the colours seen ("distinct N")
 * and the pixels that are not white ("ink N"). Exit 1 when the PNG cannot
 * be read. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cairo.h>

#define MAX_WANT 16

static int
near(int a, int b)
{
	return a - b <= 8 && b - a <= 8;
}

/* A set of 24-bit colours: one bit each. */
static uint8_t seen[1 << 21];

int
main(int argc, char **argv)
{
	cairo_surface_t *s;
	int want[MAX_WANT][3], nwant = argc - 2, w, h, stride;
	unsigned long counts[MAX_WANT] = { 0 }, distinct = 0, ink = 0;
	const unsigned char *data;

	if (argc < 2 || nwant > MAX_WANT) {
		fprintf(stderr, "usage: png_colours FILE [R,G,B]...\n");
		return 2;
	}
	for (int k = 0; k < nwant; k++)
		if (sscanf(argv[k + 2], "%d,%d,%d", &want[k][0], &want[k][1], &want[k][2]) != 3) {
			fprintf(stderr, "png_colours: not R,G,B: %s\n", argv[k + 2]);
			return 2;
		}
	s = cairo_image_surface_create_from_png(argv[1]);
	if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
		fprintf(stderr, "png_colours: %s: %s\n", argv[1],
		        cairo_status_to_string(cairo_surface_status(s)));
		return 1;
	}
	w = cairo_image_surface_get_width(s);
	h = cairo_image_surface_get_height(s);
	stride = cairo_image_surface_get_stride(s);
	data = cairo_image_surface_get_data(s);
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			/* ARGB32 or RGB24 in native byte order: a 32-bit word */
			uint32_t px;
			int r, g, b;
			memcpy(&px, data + (size_t)y * (size_t)stride + (size_t)x * 4, 4);
			r = (int)(px >> 16 & 255), g = (int)(px >> 8 & 255), b = (int)(px & 255);
			uint32_t rgb = px & 0xffffff;
			if (!(seen[rgb >> 3] & (1u << (rgb & 7)))) {
				seen[rgb >> 3] |= (uint8_t)(1u << (rgb & 7));
				distinct++;
			}
			ink += rgb != 0xffffff;
			for (int k = 0; k < nwant; k++)
				counts[k] += near(r, want[k][0]) && near(g, want[k][1]) &&
				             near(b, want[k][2]);
		}
	for (int k = 0; k < nwant; k++)
		printf("%s %lu\n", argv[k + 2], counts[k]);
	printf("distinct %lu\nink %lu\n", distinct, ink);
	cairo_surface_destroy(s);
	return 0;
}
