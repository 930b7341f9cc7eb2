package mobile

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/psd2live/p2l-ebiten/mobile/internal/core"
)

// fresh gives the test its own character state.
func fresh(t *testing.T) {
	t.Helper()
	old := std
	std = core.New()
	t.Cleanup(func() { std = old })
}

func TestBadBytesAreErrors(t *testing.T) {
	fresh(t)
	for _, data := range [][]byte{
		nil,
		{},
		[]byte("P2LR"),
		[]byte("this is not a model at all, just text"),
		make([]byte, 4096),
	} {
		err := LoadModel(data)
		if err == nil {
			t.Errorf("LoadModel(%q...) succeeded", data[:min(len(data), 8)])
		}
	}
	if Loaded() {
		t.Error("Loaded after failed loads")
	}
}

func TestNoModel(t *testing.T) {
	fresh(t)
	if ClipCount() != 0 || ClipID(0) != "" || !math.IsNaN(ClipDuration(0)) ||
		ExpressionCount() != 0 || HitAreaCount() != 0 || ParameterCount() != 0 ||
		!math.IsNaN(ParameterMin(0)) || AdvancedFeatures() != 0 {
		t.Error("accessors without a model are not empty")
	}
	for name, err := range map[string]error{
		"PlayClip":      PlayClip("idle"),
		"PlayClipLayer": PlayClipLayer(1, "idle", PriorityNormal),
		"StopClips":     StopClips(),
		"SetExpression": SetExpression("smile"),
		"LookAt":        LookAt(0, 0),
		"SetLipSync":    SetLipSync(0.5),
		"LipSyncPCM":    LipSyncPCM([]byte{0, 0}, 44100),
		"SetParameter":  SetParameter("ParamAngleX", 1),
		"SetAdvanced":   SetAdvanced(AdvancedSkin),
	} {
		if err == nil || !strings.Contains(err.Error(), "no model") {
			t.Errorf("%s without a model: %v, want a no-model error", name, err)
		}
	}
	if id, err := HitTest(0.5, 0.5); id != "" || err == nil {
		t.Errorf("HitTest without a model = %q, %v", id, err)
	}
	// Calls that do not need a model work.
	if err := SetBackground(0.2, 0.4, 0.6, 1); err != nil {
		t.Error(err)
	}
	if got := std.Background(); got != (core.Color{R: 0.2, G: 0.4, B: 0.6, A: 1}) {
		t.Errorf("background %v", got)
	}
	Pause()
	if !Paused() {
		t.Error("not paused after Pause")
	}
	Resume()
	if Paused() {
		t.Error("paused after Resume")
	}
	SetListener(nil)
}

// TestMobileEntryCompiles type-checks game_mobile.go, the file only Android
// and iOS builds compile, against the desktop's view of its imports (the
// same API: ebiten/v2/mobile.SetGame exists everywhere and panics off
// mobile, so the file is vetted but never run).
func TestMobileEntryCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go vet")
	}
	goCmd := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goCmd); err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command(goCmd, "vet", "-tags", "p2lmobilecheck", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go vet -tags p2lmobilecheck: %v\n%s", err, out)
	}
}
