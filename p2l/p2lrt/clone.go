package p2lrt

import "reflect"

// Clone returns a deep copy of f: no slice, pointer or string of the copy
// is shared with f (strings are immutable and stay shared), so changing
// one never changes the other. A nil File clones as nil.
func (f *File) Clone() *File {
	if f == nil {
		return nil
	}
	c := new(File)
	deepCopy(reflect.ValueOf(c).Elem(), reflect.ValueOf(f).Elem())
	return c
}

// deepCopy copies src into dst (settable, of src's type), allocating new
// backing arrays for slices and new values for pointers. File's types hold
// only structs, slices, arrays, pointers and plain values: no maps,
// interfaces or cycles.
func deepCopy(dst, src reflect.Value) {
	switch src.Kind() {
	case reflect.Pointer:
		if src.IsNil() {
			return
		}
		p := reflect.New(src.Type().Elem())
		deepCopy(p.Elem(), src.Elem())
		dst.Set(p)
	case reflect.Slice:
		if src.IsNil() {
			return
		}
		s := reflect.MakeSlice(src.Type(), src.Len(), src.Len())
		if plain(src.Type().Elem()) {
			reflect.Copy(s, src)
		} else {
			for i := range src.Len() {
				deepCopy(s.Index(i), src.Index(i))
			}
		}
		dst.Set(s)
	case reflect.Struct:
		for i := range src.NumField() {
			deepCopy(dst.Field(i), src.Field(i))
		}
	case reflect.Array:
		if plain(src.Type().Elem()) {
			dst.Set(src)
			return
		}
		for i := range src.Len() {
			deepCopy(dst.Index(i), src.Index(i))
		}
	default:
		dst.Set(src)
	}
}

// plain reports whether values of t hold no slice or pointer, so that a
// copy of the value is a deep copy.
func plain(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		return false
	case reflect.Struct:
		for i := range t.NumField() {
			if !plain(t.Field(i).Type) {
				return false
			}
		}
	case reflect.Array:
		return plain(t.Elem())
	}
	return true
}
