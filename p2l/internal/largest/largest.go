// Package largest finds the largest of an array of triangle indices, for
// the checks that every index of every mesh passes (p2l/moc3 and
// p2l/p2lrt compare it with the vertex count once, and walk the indices
// one by one only to name the first at fault).
package largest

// Of returns the largest value of s, 0 for an empty s: eight values a
// step taken as an array, without a branch per value.
func Of[T uint16 | uint32](s []T) T {
	var a, b T
	for len(s) >= 8 {
		x := (*[8]T)(s)
		a = max(a, x[0], x[1], x[2], x[3])
		b = max(b, x[4], x[5], x[6], x[7])
		s = s[8:]
	}
	for _, v := range s {
		a = max(a, v)
	}
	return max(a, b)
}
