// Package cubismsamples locates the official Live2D sample models for tests.
//
// The samples (Hiyori, Mark, Natori, Mao, Ren) are published by Live2D under
// the Live2D Free Material License. They are never copied into this
// repository: tests read them from the folder named by the environment
// variable P2L_CUBISM_SAMPLES or, when it is unset, from
// ../shared/cubism-samples next to the repository, and skip when neither
// exists. CI sets the variable (.ci/run). Tests run on every model folder
// found there (Names), so more official samples dropped into it are tested
// too.
package cubismsamples

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
)

// EnvVar names the environment variable that points at the samples folder.
const EnvVar = "P2L_CUBISM_SAMPLES"

// Shared lists the five samples of the shared folder (its README), each a
// folder holding NAME.model3.json.
var Shared = []string{"Hiyori", "Mark", "Natori", "Mao", "Ren"}

// Names lists the sample models the tests run on: Shared, then any other
// folder of the samples folder holding NAME/NAME.model3.json (more
// official samples, such as Haru, Rice and Wanko of
// Live2D/CubismWebSamples), sorted. Tests that expect values of a
// particular sample name it instead.
var Names = names()

func names() []string {
	out := slices.Clone(Shared)
	dir, ok := Dir()
	if !ok {
		return out
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return out
	}
	for _, e := range entries {
		n := e.Name()
		if slices.Contains(Shared, n) {
			continue
		}
		if st, err := os.Stat(filepath.Join(dir, n, n+".model3.json")); err == nil && st.Mode().IsRegular() {
			out = append(out, n) // ReadDir sorts by name
		}
	}
	return out
}

// Dir returns the samples folder and whether it exists.
func Dir() (string, bool) {
	dir := os.Getenv(EnvVar)
	if dir == "" {
		_, file, _, ok := runtime.Caller(0)
		if !ok {
			return "", false
		}
		// file is <repo>/internal/cubismsamples/samples.go.
		dir = filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", "cubism-samples")
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return dir, false
	}
	return dir, true
}

// Require returns the samples folder, or skips tb when it is absent. With
// the environment variable set to a folder that does not exist, it fails
// instead: CI asked for the samples and must not silently skip them.
func Require(tb testing.TB) string {
	tb.Helper()
	dir, ok := Dir()
	if !ok {
		if os.Getenv(EnvVar) != "" {
			tb.Fatalf("%s=%s: no such folder", EnvVar, dir)
		}
		tb.Skipf("Live2D sample models not found (set %s)", EnvVar)
	}
	return dir
}

// Model returns the path of NAME/NAME.model3.json in the samples folder,
// skipping tb as Require does.
func Model(tb testing.TB, name string) string {
	tb.Helper()
	return filepath.Join(Require(tb), name, name+".model3.json")
}

// Moc returns the path of NAME/NAME.moc3 in the samples folder, skipping tb
// as Require does.
func Moc(tb testing.TB, name string) string {
	tb.Helper()
	return filepath.Join(Require(tb), name, name+".moc3")
}
