package cubism

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
)

// This file reads Cubism JSON the way the framework's CubismJson does:
// keys are case-sensitive, a missing value reads as the type's default (0,
// "", false, empty), and nothing about a value's type fails the file. Each
// place where a value is missing, of the wrong type or out of range and a
// default is used instead becomes a Warning. Only bytes that are not JSON,
// or a top level that is not an object, are errors.

// reader holds the warnings of one file.
type reader struct {
	file  string
	warns []Warning
}

func (r *reader) warn(field, format string, args ...any) {
	r.warns = append(r.warns, Warning{File: r.file, Field: field, Msg: fmt.Sprintf(format, args...)})
}

func (r *reader) errf(field, format string, args ...any) error {
	return &Error{File: r.file, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// value is one JSON value and its path in the file ("Curves[3].Id").
type value struct {
	v    any // nil when missing or JSON null
	path string
	set  bool // present in the file (possibly null)
}

// MaxFileSize is the largest Cubism file the importer reads: decoding
// JSON allocates 33–36 times a file's size for real shapes (curves,
// expression entries) and up to 120 times for an array of one-digit
// numbers, so the bound keeps an import under a few GiB. Real motion files
// are well below it (a minute of 100 baked curves at 30 fps is about 4 MB).
const MaxFileSize = 32 << 20

// parse decodes data into its top-level object.
func (r *reader) parse(data []byte) (value, error) {
	if len(data) > MaxFileSize {
		return value{}, r.errf("", "file of %d bytes exceeds the %d-byte limit (cubism.MaxFileSize)", len(data), MaxFileSize)
	}
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return value{}, r.errf("", "not JSON: %v", err)
	}
	if _, err := d.Token(); err != io.EOF {
		return value{}, r.errf("", "not JSON: data after the top-level value")
	}
	if _, ok := v.(map[string]any); !ok {
		return value{}, r.errf("", "not a Cubism JSON file: the top level is %s, not an object", typeName(v))
	}
	return value{v: v, set: true}, nil
}

func typeName(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	}
	return fmt.Sprintf("%T", v)
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// get returns the member key of an object (missing when v is no object).
func (v value) get(key string) value {
	o, _ := v.v.(map[string]any)
	x, ok := o[key]
	return value{v: x, path: join(v.path, key), set: ok}
}

// missing reports whether the value is absent or null.
func (v value) missing() bool { return v.v == nil }

// has reports whether an object has the member key (even null).
func (v value) has(key string) bool {
	o, _ := v.v.(map[string]any)
	_, ok := o[key]
	return ok
}

// list returns the elements of an array; a missing value is an empty list,
// anything else warns and is empty.
func (r *reader) list(v value) []value {
	if v.missing() {
		return nil
	}
	a, ok := v.v.([]any)
	if !ok {
		r.warn(v.path, "%s where an array is expected: read as empty", typeName(v.v))
		return nil
	}
	out := make([]value, len(a))
	for i, x := range a {
		out[i] = value{v: x, path: fmt.Sprintf("%s[%d]", v.path, i), set: true}
	}
	return out
}

// number returns a finite number, or def (with a warning unless the value
// is missing and quiet) when it is missing, not a number or not finite.
func (r *reader) number(v value, def float64, quiet bool) float64 {
	if f, ok := finiteNumber(v.v); ok {
		return f
	}
	if v.missing() {
		if !quiet {
			r.warn(v.path, "missing: read as %v", def)
		}
		return def
	}
	if n, ok := v.v.(json.Number); ok {
		r.warn(v.path, "number %s out of range: read as %v", n, def)
	} else {
		r.warn(v.path, "%s where a number is expected: read as %v", typeName(v.v), def)
	}
	return def
}

// finiteNumber is a JSON number that is finite as a float64; false for
// anything else (which number warns about).
func finiteNumber(x any) (float64, bool) {
	n, ok := x.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

// float32 is number rounded to float32, with values beyond float32's range
// read as def.
func (r *reader) float32(v value, def float32, quiet bool) float32 {
	f := r.number(v, float64(def), quiet)
	if math.Abs(f) > math.MaxFloat32 {
		r.warn(v.path, "number %v out of the float32 range: read as %v", f, def)
		return def
	}
	return float32(f)
}

// string returns a string, or "" (with a warning when present but not a
// string).
func (r *reader) string(v value) string {
	if v.missing() {
		return ""
	}
	s, ok := v.v.(string)
	if !ok {
		r.warn(v.path, "%s where a string is expected: read as \"\"", typeName(v.v))
	}
	return s
}

// boolean returns a boolean, or false (with a warning when present but not
// a boolean).
func (r *reader) boolean(v value) bool {
	if v.missing() {
		return false
	}
	b, ok := v.v.(bool)
	if !ok {
		r.warn(v.path, "%s where a boolean is expected: read as false", typeName(v.v))
	}
	return b
}

// count returns a Meta count: -1 when missing or invalid (then the content
// decides), else the integer.
func (r *reader) count(v value) int {
	if v.missing() {
		return -1
	}
	f := r.number(v, -1, true)
	if f < 0 || f != math.Trunc(f) || f > math.MaxInt32 {
		r.warn(v.path, "not a count: ignored")
		return -1
	}
	return int(f)
}

// counted applies a Meta count to the entries of an array as the framework
// does: it reads the first count entries (the rest is skipped with a
// warning); a larger count than there are entries only warns.
func (r *reader) counted(entries []value, count int, countField, what string) []value {
	switch {
	case count < 0:
	case count < len(entries):
		r.warn(countField, "%d %s but the file has %d: the framework reads the first %d, so do we (%s from [%d] on are skipped)", count, what, len(entries), count, what, count)
		entries = entries[:count]
	case count > len(entries):
		r.warn(countField, "%d %s but the file has %d: the %d present are read", count, what, len(entries), len(entries))
	}
	return entries
}

// objectKeys returns the keys of the object reached from the top of the
// JSON document data through the members path, in the file's order (a Go
// map forgets it; the framework's CubismJson keeps it, and motion groups
// are listed in it), each once; nil when there is no such object.
func objectKeys(data []byte, path ...string) []string {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var skip json.RawMessage
	for depth := 0; ; depth++ {
		if t, err := d.Token(); err != nil || t != json.Delim('{') {
			return nil
		}
		var keys []string
		seen := make(map[string]bool)
		for d.More() {
			t, err := d.Token()
			k, ok := t.(string)
			if err != nil || !ok {
				return nil
			}
			if depth < len(path) && k == path[depth] {
				break
			}
			if depth == len(path) && !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
			if err := d.Decode(&skip); err != nil {
				return nil
			}
		}
		if depth == len(path) {
			return keys
		}
	}
}

// members returns the keys of object v, found in data through path: in
// the file's order (objectKeys), then, sorted, any the scan did not see (a
// document repeating a member of the path, whose last copy Go keeps).
func members(v value, data []byte, path ...string) []string {
	o, _ := v.v.(map[string]any)
	keys := objectKeys(data, path...)
	n := 0
	for _, k := range keys {
		if _, ok := o[k]; ok {
			keys[n] = k
			n++
		}
	}
	keys = keys[:n]
	if n == len(o) {
		return keys
	}
	listed := make(map[string]bool, n)
	for _, k := range keys {
		listed[k] = true
	}
	var rest []string
	for k := range o {
		if !listed[k] {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	return append(keys, rest...)
}
