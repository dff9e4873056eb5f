package schemagen

import (
	"fmt"
	"reflect"
	"strings"
)

// checkRecursion returns an error if a struct type reachable from t contains
// itself, directly or through pointers, slices, arrays or maps. It must run
// before the invopop reflector, which would recurse without end on such a
// type when asked not to use references.
//
// It follows the same fields as the schema will: exported fields and
// embedded structs, minus those tagged json:"-".
func checkRecursion(t reflect.Type) error {
	w := recursionWalker{done: make(map[reflect.Type]bool)}
	return w.visit(t)
}

// recursionWalker is a depth-first search over struct types. The stack holds
// the struct types being visited, each with the length of segs when it was
// entered, so the field path that leads back to a type can be printed.
type recursionWalker struct {
	stack []recursionFrame
	segs  []string
	done  map[reflect.Type]bool // struct types known to be free of cycles
}

type recursionFrame struct {
	t    reflect.Type
	segs int
}

func (w *recursionWalker) visit(t reflect.Type) error {
	for {
		switch t.Kind() {
		case reflect.Pointer:
			t = t.Elem()
			continue
		case reflect.Slice, reflect.Array:
			w.segs = append(w.segs, "[]")
			err := w.visit(t.Elem())
			w.segs = w.segs[:len(w.segs)-1]
			return err
		case reflect.Map:
			w.segs = append(w.segs, "[key]")
			err := w.visit(t.Elem())
			w.segs = w.segs[:len(w.segs)-1]
			return err
		case reflect.Struct:
			return w.visitStruct(t)
		}
		return nil
	}
}

func (w *recursionWalker) visitStruct(t reflect.Type) error {
	if w.done[t] {
		return nil
	}
	for _, fr := range w.stack {
		if fr.t == t {
			path := t.Name() + strings.Join(w.segs[fr.segs:], "")
			return fmt.Errorf("type %s is recursive: %s leads back to %s; recursive types cannot be described without references", t, path, t.Name())
		}
	}
	w.stack = append(w.stack, recursionFrame{t: t, segs: len(w.segs)})
	for i := range t.NumField() {
		sf := t.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if name == "-" && !strings.Contains(sf.Tag.Get("json"), ",") {
			continue
		}
		if !sf.IsExported() && !sf.Anonymous {
			continue
		}
		seg := "." + sf.Name
		if sf.Anonymous && name == "" {
			seg = "" // promoted fields read as if declared here
		}
		w.segs = append(w.segs, seg)
		err := w.visit(sf.Type)
		w.segs = w.segs[:len(w.segs)-1]
		if err != nil {
			return err
		}
	}
	w.stack = w.stack[:len(w.stack)-1]
	w.done[t] = true
	return nil
}
