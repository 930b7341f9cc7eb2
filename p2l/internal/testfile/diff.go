package testfile

import (
	"fmt"
	"reflect"
)

// Diff describes the first differing field of two models.
func Diff(a, b any) string {
	return diff(reflect.ValueOf(a), reflect.ValueOf(b), "m", false)
}

// DiffLenient is diffModels treating nil and empty slices as equal.
func DiffLenient(a, b any) string {
	return diff(reflect.ValueOf(a), reflect.ValueOf(b), "m", true)
}

func diff(a, b reflect.Value, path string, lenient bool) string {
	if a.Kind() != b.Kind() {
		return path + ": kinds differ"
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() != b.IsNil() {
			return fmt.Sprintf("%s: nil %v vs %v", path, a.IsNil(), b.IsNil())
		}
		if a.IsNil() {
			return ""
		}
		return diff(a.Elem(), b.Elem(), path, lenient)
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if d := diff(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name, lenient); d != "" {
				return d
			}
		}
		return ""
	case reflect.Slice:
		if !lenient && a.IsNil() != b.IsNil() {
			return fmt.Sprintf("%s: nil %v vs %v (len %d, %d)", path, a.IsNil(), b.IsNil(), a.Len(), b.Len())
		}
		fallthrough
	case reflect.Array:
		if a.Len() != b.Len() {
			return fmt.Sprintf("%s: len %d vs %d", path, a.Len(), b.Len())
		}
		for i := 0; i < a.Len(); i++ {
			if d := diff(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i), lenient); d != "" {
				return d
			}
		}
		return ""
	}
	if !reflect.DeepEqual(a.Interface(), b.Interface()) {
		return fmt.Sprintf("%s: %v vs %v", path, a.Interface(), b.Interface())
	}
	return ""
}
