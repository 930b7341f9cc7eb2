package p2l

import (
	"reflect"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
	"time"
	"weak"
)

// TestPreparedFormIsDroppedWithTheModel: the per-model prepared form lives
// in its model; nothing else keeps the model alive once it is used (no
// package-level table): it is collected.
func TestPreparedFormIsDroppedWithTheModel(t *testing.T) {
	var keys []weak.Pointer[Model]
	func() {
		for i := 0; i < 10; i++ {
			m := newTestModel(param("p", 0, 1, 0))
			m.mesh(-1, 0, 0, 1, 0, 0, 1)
			r := m.Model.NewRig()
			r.Evaluate()
			if r.Err() != nil {
				t.Fatal(r.Err())
			}
			keys = append(keys, weak.Make(&m.Model))
		}
	}()
	alive := func() int {
		n := 0
		for _, k := range keys {
			if k.Value() != nil {
				n++
			}
		}
		return n
	}
	deadline := time.Now().Add(5 * time.Second)
	for alive() > 0 && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if n := alive(); n > 0 {
		t.Fatalf("%d used models outlive their last reference", n)
	}
}

// TestPreparationKeepsFilesEqual: preparing one of two models of equal
// files leaves the files equal under reflect.DeepEqual (preparation never
// writes the file).
func TestPreparationKeepsFilesEqual(t *testing.T) {
	build := func() *Model {
		m := newTestModel(param("p", 0, 1, 0))
		m.mesh(-1, 0, 0, 1, 0, 0, 1)
		return &m.Model
	}
	a, b := build(), build()
	a.NewRig().Evaluate()
	if !reflect.DeepEqual(a.file, b.file) {
		t.Fatal("prepared model's file differs from an unprepared one")
	}
	if a.MeshIndex("m0") != 0 || b.ParameterIndex("p") != 0 {
		t.Fatal("lookups")
	}
}

// TestRecoveredOnceLeavesNoHalfResult checks the rule for work done once
// per model: a panic inside becomes an error, never a half-built result.
func TestRecoveredOnceLeavesNoHalfResult(t *testing.T) {
	err := recovered("testing", func() error { var s []int; _ = s[len(s)+3]; return nil })
	if err == nil || !strings.Contains(err.Error(), "testing failed") {
		t.Fatalf("recovered = %v", err)
	}
}

// TestWithDirSharesPreparation: WithDir changes where files resolve, not
// the records, so the new model plays from m's prepared tables (one
// preparation, and the trial evaluation's rig still waiting for the first
// NewRig) instead of preparing again; m keeps its own Dir.
func TestWithDirSharesPreparation(t *testing.T) {
	tm := newTestModel(param("p", 0, 1, 0))
	tm.mesh(-1, 0, 0, 1, 0, 0, 1)
	m, err := NewModel(tm.file)
	if err != nil {
		t.Fatal(err)
	}
	dir := fstest.MapFS{}
	c := m.WithDir(dir)
	if c.prep() != m.prep() {
		t.Error("WithDir's model prepared its records again")
	}
	if c.Dir() == nil || m.Dir() != nil {
		t.Errorf("Dir: clone %v, original %v; want the new dir and none", c.Dir(), m.Dir())
	}
	if r := c.NewRig(); r.Model() != c {
		t.Error("the clone's first rig does not name the clone")
	}
}
