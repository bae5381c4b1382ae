/* gcd.h: the greatest common divisor, which keeps fractions exact and
 * small: scale factors when a report definition is read (rptdef.c), and
 * figures when they are written (metric.c). */
#ifndef GCD_H
#define GCD_H

/* gcd(a, 0) is a; the result is 0 only when both are. */
static inline unsigned __int128
gcd(unsigned __int128 a, unsigned __int128 b)
{
	while (b) {
		unsigned __int128 t = a % b;
		a = b;
		b = t;
	}
	return a;
}

#endif
