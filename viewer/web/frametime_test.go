package main

import (
	"bytes"
	"context"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

var frameTimes = flag.Bool("frametimes", false, "run TestFrameTimes (docs/PERFORMANCE.md)")

// TestFrameTimes measures, in one browser, the intervals between 60
// animation frames of three 1280×800 pages: the floor (viewer/internal/webfloor, an
// Ebitengine game that only fills its screen), the viewer on the default
// character without its UI (?noui) and with it. The frame rate is not
// capped (--disable-frame-rate-limit), so an interval is the cost of a
// frame. Since the machine is shared, it also logs the CPU time all the
// browser's processes (browser, renderer, GPU: those whose command line
// names this test's profile folder; Linux /proc) spent per frame, which
// other load disturbs less. Not part of make test: pass -args -frametimes.
func TestFrameTimes(t *testing.T) {
	if !*frameTimes {
		t.Skip("pass -args -frametimes to measure")
	}
	chromium(t)
	dir := t.TempDir()
	if err := build(dir); err != nil {
		t.Fatal(err)
	}
	floor := filepath.Join(dir, "floor")
	if err := os.Mkdir(floor, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := wasmBuild("build", "-trimpath", "-ldflags=-s -w", "-o", filepath.Join(floor, "viewer.wasm"), "./viewer/internal/webfloor"); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{filepath.Join(dir, "viewer.wasm"), filepath.Join(dir, "viewer.wasm.gz"), filepath.Join(floor, "viewer.wasm")} {
		if st, err := os.Stat(f); err == nil {
			t.Logf("%s: %d bytes", f[len(dir)+1:], st.Size())
		}
	}
	copyFile(t, filepath.Join(floor, "index.html"), filepath.Join(dir, "index.html"))
	copyFile(t, filepath.Join(floor, "wasm_exec.js"), filepath.Join(dir, "wasm_exec.js"))
	srv := httptest.NewServer(handler(http.Dir(dir)))
	t.Cleanup(srv.Close)
	profile := t.TempDir()
	ctx := newTab(t, 1280, 800, 10*time.Minute, chromedp.UserDataDir(profile),
		chromedp.Flag("disable-frame-rate-limit", true), chromedp.Flag("disable-gpu-vsync", true))
	var floorMedian, floorCPU float64
	for _, page := range []struct{ name, path string }{
		{"floor (fill only)", "/floor/"},
		{"viewer, default character, ?noui", "/?noui&quiet"},
		{"viewer, default character, UI", "/?quiet"},
	} {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(1280, 800), chromedp.Navigate(srv.URL+page.path)); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Run(ctx, chromedp.Poll[bool]("document.querySelector('canvas') !== null", chromedp.WithPollingTimeout(time.Minute))); err != nil {
			t.Fatal(err)
		}
		frames(t, ctx, 30) // warm up: shaders compiled, pages uploaded
		cpu0, procs := browserCPU(profile)
		ms := frames(t, ctx, 60)
		cpu1, _ := browserCPU(profile)
		sum := 0.0
		for _, v := range ms {
			sum += v
		}
		median := ms[len(ms)/2]
		if floorMedian == 0 {
			floorMedian = median
		}
		cpu := float64(cpu1-cpu0) / float64(time.Millisecond) / float64(len(ms))
		if floorCPU == 0 {
			floorCPU = cpu
		}
		t.Logf("%s: median %.1f ms (%.1f× the floor), mean %.1f ms, 90th percentile %.1f ms; browser CPU %.1f ms per frame (%.1f× the floor; %d processes)",
			page.name, median, median/floorMedian, sum/float64(len(ms)), ms[len(ms)*9/10], cpu, cpu/floorCPU, procs)
	}
}

// frames returns the sorted intervals between n+1 animation frames, in ms.
func frames(t *testing.T, ctx context.Context, n int) []float64 {
	t.Helper()
	ms, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`new Promise((resolve) => {
		const times = [];
		const step = (now) => {
			times.push(now);
			if (times.length > `+strconv.Itoa(n)+`) resolve(times.slice(1).map((t, i) => t - times[i]).sort((a, b) => a - b));
			else requestAnimationFrame(step);
		};
		requestAnimationFrame(step);
	})`, chromedp.EvalAsValue, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	return ms
}

// browserCPU returns the CPU time (user + system) used so far by the
// processes whose command line names profile, and how many there are.
// Without /proc it returns zeros.
func browserCPU(profile string) (time.Duration, int) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0, 0
	}
	var ticks int64
	n := 0
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		cmd, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !bytes.Contains(cmd, []byte(profile)) {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// Fields after the command name in parentheses: utime and stime
		// are the 12th and 13th (proc(5): fields 14 and 15).
		f := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
		if len(f) < 13 {
			continue
		}
		u, _ := strconv.ParseInt(f[11], 10, 64)
		s, _ := strconv.ParseInt(f[12], 10, 64)
		ticks += u + s
		n++
	}
	return time.Duration(ticks) * 10 * time.Millisecond, n // USER_HZ is 100 on Linux
}
