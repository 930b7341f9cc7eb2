package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// The tests in this file run in headless Chromium (Debian's chromium):
// make test runs them when a Chromium is installed, and skips them
// otherwise, unless P2L_REQUIRE_BROWSER is set (CI sets it, after
// installing one). P2L_CHROMIUM names the binary to use.

// repoRoot is the module root, from this package's folder.
const repoRoot = "../.."

// chromium returns the browser binary, or skips the test without one.
func chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("P2L_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("P2L_REQUIRE_BROWSER") != "" {
		t.Fatal("no Chromium found and P2L_REQUIRE_BROWSER is set")
	}
	t.Skip("no Chromium installed (apt-get install chromium); the browser tests are skipped")
	return ""
}

// newTab starts headless Chromium with a w×h window and returns the
// context of its tab; the browser ends with the test or after timeout.
// The flags are those that work on these machines (docs/WEB.md): no
// sandbox (CI runs as root), no GPU (WebGL runs on SwiftShader), nothing
// that reaches the network.
func newTab(t *testing.T, w, h int, timeout time.Duration, flags ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	exe := chromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	t.Cleanup(cancel)
	gl := &glErrors{}
	t.Cleanup(func() {
		for _, e := range gl.list() {
			t.Errorf("WebGL refused a call: %s", e)
		}
	})
	ctx, cancelTab := chromedp.NewContext(ctx,
		chromedp.WithAllocatorOptions(
			chromedp.ExecPath(exe),
			chromedp.NoSandbox,
			chromedp.DisableGPU,
			chromedp.Flag("disable-quic", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("enable-unsafe-swiftshader", true),
			// As browsers do by default for a page the user has not
			// interacted with (headless Chromium would start audio).
			chromedp.Flag("autoplay-policy", "user-gesture-required"),
			chromedp.UserDataDir(t.TempDir()),
			chromedp.WindowSize(w, h),
			chromedp.CombinedOutput(gl),
		),
		chromedp.WithAllocatorOptions(flags...),
		chromedp.WithListener(func(ev any) {
			switch ev := ev.(type) {
			case *runtime.EventExceptionThrown:
				d := ev.ExceptionDetails
				if d.Exception != nil && strings.Contains(d.Exception.Description, "Go program has already exited") {
					return // Ebitengine's frame callbacks after a test binary's exit
				}
				msg := d.Text
				if d.Exception != nil {
					msg += " " + d.Exception.Description
				}
				t.Logf("page exception: %s", msg)
			case *runtime.EventConsoleAPICalled:
				if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeWarning {
					var parts []string
					for _, a := range ev.Args {
						if a.Description != "" {
							parts = append(parts, a.Description)
						} else {
							parts = append(parts, string(a.Value))
						}
					}
					t.Logf("console %s: %s", ev.Type, strings.Join(parts, " "))
				}
			}
		}),
	)
	t.Cleanup(cancelTab)
	if err := chromedp.Do(ctx); err != nil { // starts the browser
		t.Fatalf("starting %s: %v", exe, err)
	}
	return ctx
}

// glErrors reads Chromium's log and keeps the WebGL errors it reports
// (GL_INVALID_OPERATION and the like): WebGL refuses such a call and draws
// nothing, where desktop OpenGL may let the same call through, so the
// error names the cause of wrong pixels in the browser.
type glErrors struct {
	mu   sync.Mutex
	line []byte
	seen map[string]int
}

func (g *glErrors) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.line = append(g.line, p...)
	for {
		i := bytes.IndexByte(g.line, '\n')
		if i < 0 {
			break
		}
		if j := bytes.Index(g.line[:i], []byte("GL_INVALID")); j >= 0 {
			if g.seen == nil {
				g.seen = map[string]int{}
			}
			g.seen[string(g.line[j:i])]++
		} else if j := bytes.Index(g.line[:i], []byte("GL_OUT_OF_MEMORY")); j >= 0 {
			g.seen[string(g.line[j:i])]++
		}
		g.line = g.line[i+1:]
	}
	return len(p), nil
}

// list returns the distinct errors with their counts.
func (g *glErrors) list() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	var out []string
	for e, n := range g.seen {
		out = append(out, fmt.Sprintf("%s (%d×)", e, n))
	}
	sort.Strings(out)
	return out
}

// copyFile copies src to dst.
func copyFile(t *testing.T, dst, src string) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// goTestResult is window.goTest of testdata/gotest.html.
type goTestResult struct {
	Code     int    `json:"code"`
	Output   string `json:"output"`
	Renderer string `json:"renderer"`
}

// runGoTestInBrowser builds the tests of pkg (a folder under the module
// root) for js/wasm, runs the binary in Chromium with args, the package
// folder as working directory and files (paths under the module root)
// readable, and returns its exit code and output.
func runGoTestInBrowser(t *testing.T, pkg string, files []string, timeout time.Duration, args ...string) goTestResult {
	t.Helper()
	chromium(t) // skip before building
	dir := t.TempDir()
	// -trimpath as in build: the packages compiled for the viewer serve
	// here too.
	if err := wasmBuild("test", "-c", "-trimpath", "-o", filepath.Join(dir, "test.wasm"), "github.com/psd2live/p2l-ebiten/"+pkg); err != nil {
		t.Fatal(err)
	}
	goroot, err := goEnv("GOROOT")
	if err != nil {
		t.Fatal(err)
	}
	copyFile(t, filepath.Join(dir, "wasm_exec.js"), filepath.Join(goroot, "lib", "wasm", "wasm_exec.js"))
	copyFile(t, filepath.Join(dir, "gotest.html"), filepath.Join("testdata", "gotest.html"))
	copyFile(t, filepath.Join(dir, "gofs.js"), filepath.Join("testdata", "gofs.js"))
	manifest, err := json.Marshal(map[string]any{
		"args":  append([]string{filepath.Base(pkg) + ".test"}, args...),
		"cwd":   "/" + pkg,
		"files": files,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), manifest, 0o644); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/", handler(http.Dir(dir)))
	for _, f := range files {
		mux.HandleFunc("/files/"+f, func(w http.ResponseWriter, r *http.Request) {
			http.ServeFile(w, r, filepath.Join(repoRoot, f))
		})
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)

	ctx := newTab(t, 640, 480, timeout)
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/gotest.html")); err != nil {
		t.Fatal(err)
	}
	res, err := chromedp.Run(ctx, chromedp.Poll[goTestResult]("window.goTest",
		chromedp.WithPollingInterval(time.Second), chromedp.WithPollingTimeout(timeout)))
	if err != nil {
		t.Fatalf("waiting for the test binary in the browser: %v", err)
	}
	return res
}

// TestGPUParityInBrowser runs two of ebitenp2l's tests inside Chromium,
// where Ebitengine draws through WebGL (SwiftShader) and the CPU renderer
// runs in the same wasm binary: TestParity (every conformance model at
// three poses and two scales, GPU against the CPU reference renderer,
// every channel of every pixel within 2/255) and TestCompositeFormulas
// (the shaders' blend and alpha formulas against p2l/render's).
func TestGPUParityInBrowser(t *testing.T) {
	entries, err := os.ReadDir(filepath.Join(repoRoot, "testdata", "conformance"))
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, e := range entries {
		files = append(files, "testdata/conformance/"+e.Name())
	}
	start := time.Now()
	res := runGoTestInBrowser(t, "ebitenp2l", files, 4*time.Minute, "-test.run=^(TestParity|TestCompositeFormulas)$", "-test.v")
	t.Logf("built and ran in the browser in %v; WebGL renderer: %s", time.Since(start).Round(time.Second), res.Renderer)
	for _, l := range regexp.MustCompile(`(?m)^.*max channel difference.*$`).FindAllString(res.Output, -1) {
		t.Log(strings.TrimSpace(l))
	}
	if res.Code != 0 {
		t.Fatalf("the tests in the browser exited with %d:\n%s", res.Code, res.Output)
	}
	for _, name := range []string{"TestParity", "TestCompositeFormulas"} {
		if !strings.Contains(res.Output, "--- PASS: "+name+" ") {
			t.Errorf("%s did not pass in the browser:\n%s", name, res.Output)
		}
	}
}
