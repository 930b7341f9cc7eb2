package p2l

import (
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/psd2live/p2l-ebiten/p2l/p2lrt"
)

// Every refusal of a file by Load is a *FormatError (issue 35 item 3),
// including the trial evaluation's: these tests load hostile variants of
// writer output — the families the independent probing used — and require
// errors.As to find the FormatError, and its message to name what its
// fields say.

// checkTyped fails unless err is nil or a *FormatError whose message names
// its chunk and field (an error outside any chunk, such as bytes after a v1
// stream, at least its offset); a trial evaluation's error must also name a
// record of a chunk by index. It returns the error, or nil.
func checkTyped(t *testing.T, what string, err error) *p2lrt.FormatError {
	t.Helper()
	if err == nil {
		return nil
	}
	var fe *p2lrt.FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("%s: %T is not a *FormatError: %v", what, err, err)
	}
	msg := fe.Error()
	if fe.Tag != "" && !strings.Contains(msg, "chunk "+fe.Tag) && !strings.Contains(msg, "section "+fe.Tag) && !strings.Contains(msg, "chunk "+fe.Tag+":") {
		t.Fatalf("%s: message does not name chunk %s: %s", what, fe.Tag, msg)
	}
	if fe.Field != "" && !strings.Contains(msg, fe.Field) {
		t.Fatalf("%s: message does not name field %s: %s", what, fe.Field, msg)
	}
	if fe.Tag == "" && fe.Field == "" && fe.Offset < 0 {
		t.Fatalf("%s: error names neither a chunk, a field nor an offset: %s", what, msg)
	}
	if strings.Contains(msg, "trial evaluation") && (fe.Tag == "" || !strings.Contains(fe.Field, "[")) {
		t.Fatalf("%s: trial evaluation error names no record: %s", what, msg)
	}
	return fe
}

// hostileBases are the files the families vary: the writer's v2 output of
// the model that sets every field (fullModel), and its core in the v1
// layout (v1 stores PNG pages only, so the other pages are left out).
func hostileBases(t *testing.T) map[string][]byte {
	m := fullModel()
	var pngs []p2lrt.TexturePage
	for _, p := range m.file.Textures {
		if p.Kind == p2lrt.TexturePNG {
			pngs = append(pngs, p)
		}
	}
	m.file.Textures = pngs
	return map[string][]byte{"v2": mustWrite(t, fullModel(), nil), "v1": mustWrite(t, m, &p2lrt.WriteOptions{V1: true})}
}

// TestHostileBitFlips: bit flips, one at a time: bit i mod 8 of byte i,
// so every bit position over any 8 bytes, and in the top byte of every
// 4-byte-aligned word also bit 6, a float's exponent bit 7 (×2^128 on a
// value of magnitude in [2^-126, 1), making it huge: the flips that reach
// the trial evaluation's overflow check).
func TestHostileBitFlips(t *testing.T) {
	for name, data := range hostileBases(t) {
		refused, eval := 0, 0
		for i := range data {
			bits := []int{i % 8}
			if i%4 == 3 && i%8 != 6 {
				bits = append(bits, 6)
			}
			for _, bit := range bits {
				b := append([]byte(nil), data...)
				b[i] ^= 1 << bit
				_, err := Load(b)
				if fe := checkTyped(t, name+" flip", err); fe != nil {
					refused++
					if strings.Contains(fe.Msg, "trial evaluation") {
						eval++
					}
				}
			}
		}
		if eval == 0 {
			t.Errorf("%s: no flip reached the trial evaluation's overflow check", name)
		}
		t.Logf("%s: %d flips of %d bytes refused, %d by the trial evaluation", name, refused, len(data), eval)
	}
}

// TestHostileWords: at every byte offset, the four bytes there replaced by
// a huge count (0xFFFFFFFF or 2^28, odd offsets) or a float32 extreme
// (0x7f7fffff or 0xff7fffff, ±the largest finite float32, even offsets:
// every 4-byte-aligned float gets both).
func TestHostileWords(t *testing.T) {
	counts := []uint32{0xFFFFFFFF, 1 << 28}
	floats := []uint32{0x7f7fffff, 0xff7fffff}
	for name, data := range hostileBases(t) {
		eval := 0
		for i := 0; i+4 <= len(data); i++ {
			// One word a byte: a float at even offsets, a count at odd
			// ones, each alternating between its two values.
			w := floats[i/2%2]
			if i%2 == 1 {
				w = counts[i/2%2]
			}
			{
				b := append([]byte(nil), data...)
				binary.LittleEndian.PutUint32(b[i:], w)
				_, err := Load(b)
				if fe := checkTyped(t, name+" word", err); fe != nil && strings.Contains(fe.Msg, "trial evaluation") {
					eval++
				}
			}
		}
		if eval == 0 {
			t.Errorf("%s: no variant reached the trial evaluation's overflow check", name)
		}
		t.Logf("%s: %d variants refused by the trial evaluation", name, eval)
	}
}

// TestHostileExtremePositions: finite extremes that overflow only when the
// model is evaluated. The error names the chunk and the field holding the
// largest value the failing mesh takes in, and the mesh by index and id.
func TestHostileExtremePositions(t *testing.T) {
	const big = math.MaxFloat32
	rot := func(scale float32) p2lrt.Deformer {
		return p2lrt.Deformer{Kind: p2lrt.RotationDeformer, ID: "R", Parent: -1, Part: -1, Flags: p2lrt.DeformerVisible | p2lrt.DeformerEnabled,
			Opacity: 1, Multiply: p2lrt.White, Rotation: &p2lrt.Rotation{Keyforms: &p2lrt.Grid[p2lrt.RotationKey]{Cells: []p2lrt.Cell[p2lrt.RotationKey]{{Value: p2lrt.RotationKey{Scale: scale}}}}}}
	}
	cases := []struct {
		name      string
		mutate    func(m *Model)
		tag, want string // the FormatError's Tag and Field
		id        string // the id of the record holding the field
	}{
		{"positions under a scale of 2", func(m *Model) {
			// 3.4e38 · 2 overflows: the positions hold the largest value.
			m.file.Deformers = []p2lrt.Deformer{rot(2)}
			m.file.Meshes[0].Parent = 0
			m.file.Meshes[0].Positions[2] = big
		}, "MESH", "meshes[0].positions", "m"},
		{"a rotation scale of 3.4e38", func(m *Model) {
			// 10 · 3.4e38 overflows: the deformer's keyform holds it.
			m.file.Deformers = []p2lrt.Deformer{rot(big)}
			m.file.Meshes[0].Parent = 0
		}, "DEFM", "deformers[0].keyforms.cells[0]", "R"},
		{"keyform deltas added to extreme positions", func(m *Model) {
			// 3.4e38 + 3.4e38 overflows at the key the default pose sits
			// on (parameter 0 at its default 0.5, keys 0.5 and 1).
			me := &m.file.Meshes[0]
			me.Positions[2] = big / 2
			d := make([]float32, len(me.Positions))
			d[2] = big
			me.Keyforms = &p2lrt.Grid[[]float32]{Axes: []p2lrt.Axis{{Parameter: 0, Keys: []float32{0.5, 1}}},
				Cells: []p2lrt.Cell[[]float32]{{Coord: []uint16{0}, Value: d}}}
		}, "MESH", "meshes[0].keyforms.cells[0]", "m"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := minimalModel()
			c.mutate(m)
			for _, v1 := range []bool{false, true} {
				data := mustWrite(t, m, &p2lrt.WriteOptions{V1: v1})
				_, err := Load(data)
				fe := checkTyped(t, c.name, err)
				if fe == nil {
					t.Fatal("loaded")
				}
				msg := fe.Error()
				if fe.Tag != c.tag || fe.Field != c.want || !strings.Contains(msg, `mesh 0 ("m")`) || !strings.Contains(msg, "not finite") ||
					!strings.Contains(msg, c.tag+" "+c.want+` of "`+c.id+`"`) {
					t.Errorf("v1 %v: Tag %q Field %q, want %q %q: %s", v1, fe.Tag, fe.Field, c.tag, c.want, msg)
				}
				// A v2 error points at its chunk's data; v1 has no chunks.
				if wantLayout := map[bool]int{false: 2, true: 1}[v1]; fe.Layout != wantLayout || (v1 != (fe.Offset < 0)) {
					t.Errorf("v1 %v: layout %d offset %d", v1, fe.Layout, fe.Offset)
				}
			}
		})
	}
}

// TestLoadSizeLimitIsTyped: data beyond WithMaxFileSize is refused with a
// *FormatError on the file's size.
func TestLoadSizeLimitIsTyped(t *testing.T) {
	data := buildV2(minimalChunks()...)
	_, err := Load(data, WithMaxFileSize(int64(len(data)-1)))
	fe := checkTyped(t, "size", err)
	if fe == nil || fe.Field != "size" || !strings.Contains(fe.Msg, "WithMaxFileSize") {
		t.Fatalf("Load over the size limit: %v", err)
	}
}

// TestPrepareRefusalIsTyped: a model the evaluator refuses to prepare —
// here grids that would blend more than maxEvalWork floats an evaluation
// (TestEvalWorkBounded) — is refused by Load with a *FormatError naming
// the grid with the largest share: 300 meshes of 16-axis keyform grids,
// equal shares, so the first mesh's.
func TestPrepareRefusalIsTyped(t *testing.T) {
	for _, v1 := range []bool{false, true} {
		_, err := Load(mustWrite(t, manyAxesModel(300, 16), &p2lrt.WriteOptions{V1: v1}))
		fe := checkTyped(t, "eval work", err)
		if fe == nil || fe.Tag != "MESH" || fe.Field != "meshes[0].keyforms" || !strings.Contains(fe.Msg, `mesh 0 ("m0")`) ||
			!strings.Contains(fe.Msg, "more than 33554432") {
			t.Errorf("v1 %v: %v", v1, err)
		}
	}
}
