package largest

import "testing"

// TestOf puts the largest value in each lane of the eight-value step and
// in the tail (19 values: two steps and three more), for both widths.
func TestOf(t *testing.T) {
	for at := range 19 {
		s16, s32 := make([]uint16, 19), make([]uint32, 19)
		for i := range s16 {
			s16[i], s32[i] = uint16(i%5), uint32(i%5) // 0..4
		}
		s16[at], s32[at] = 0xFFFF, 1<<31
		if got := Of(s16); got != 0xFFFF {
			t.Errorf("largest at %d: Of(uint16) = %d", at, got)
		}
		if got := Of(s32); got != 1<<31 {
			t.Errorf("largest at %d: Of(uint32) = %d", at, got)
		}
	}
	if got := Of([]uint32{7}); got != 7 {
		t.Errorf("Of([7]) = %d", got)
	}
	if got := Of([]uint16(nil)); got != 0 {
		t.Errorf("Of(nil) = %d", got)
	}
}
