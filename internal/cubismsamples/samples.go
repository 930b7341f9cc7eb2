// Package cubismsamples locates the official Live2D sample models for tests.
//
// The samples (Hiyori, Mark, Natori, Mao, Ren) are published by Live2D under
// the Live2D Free Material License. They are never copied into this
// repository: tests read them from the folder named by the environment
// variable P2L_CUBISM_SAMPLES or, when it is unset, from
// ../shared/cubism-samples next to the repository, and skip when neither
// exists. CI sets the variable (.ci/run).
package cubismsamples

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// EnvVar names the environment variable that points at the samples folder.
const EnvVar = "P2L_CUBISM_SAMPLES"

// Names lists the sample models, each a folder holding NAME.model3.json.
var Names = []string{"Hiyori", "Mark", "Natori", "Mao", "Ren"}

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
