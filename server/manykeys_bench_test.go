package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"testing"
)

// manyKeysIn is a small argument struct: a couple of fields, and a map and
// a slice that can be given many wrongly typed values.
type manyKeysIn struct {
	Name  string         `json:"name,omitempty" description:"a name"`
	Count int            `json:"count,omitempty" description:"a count"`
	Map   map[string]int `json:"map,omitempty" description:"numbers by name"`
	List  []int          `json:"list,omitempty" description:"numbers"`
}

type manyKeysOut struct {
	OK bool `json:"ok"`
}

// manyKeysServer returns a server with the tool "small", whose arguments
// are manyKeysIn and whose target is its name, so that the server reads
// the arguments for it before they are validated.
func manyKeysServer(tb testing.TB) *Server {
	tb.Helper()
	srv := New(Options{MaxRepeats: -1})
	h := func(ctx context.Context, call *Call, in manyKeysIn) (manyKeysOut, error) {
		return manyKeysOut{OK: true}, nil
	}
	if err := AddTool(srv, ToolSpec{Name: "small", Description: "d", Targets: []string{"name"}}, h); err != nil {
		tb.Fatal(err)
	}
	return srv
}

// manyKeysArgs returns arguments with n problems of one kind:
//   - unknown: n unknown top-level keys k0..k(n-1);
//   - map: n values of the wrong type in the map[string]int;
//   - list: n values of the wrong type in the []int;
//   - duplicate: the target "name", n times with n different values (a
//     single problem for the schema, but n targets for the server).
func manyKeysArgs(kind string, n int) json.RawMessage {
	b := make([]byte, 0, 16*n+32)
	b = append(b, '{')
	switch kind {
	case "unknown":
		for i := range n {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `"k`...)
			b = strconv.AppendInt(b, int64(i), 10)
			b = append(b, `":`...)
			b = strconv.AppendInt(b, int64(i%10), 10)
		}
	case "map":
		b = append(b, `"map":{`...)
		for i := range n {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `"k`...)
			b = strconv.AppendInt(b, int64(i), 10)
			b = append(b, `":"x"`...)
		}
		b = append(b, '}')
	case "list":
		b = append(b, `"list":[`...)
		for i := range n {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `"x"`...)
		}
		b = append(b, ']')
	case "duplicate":
		for i := range n {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `"name":"v`...)
			b = strconv.AppendInt(b, int64(i), 10)
			b = append(b, '"')
		}
	default:
		panic("unknown kind " + kind)
	}
	return append(b, '}')
}

// BenchmarkManyKeys calls a tool with arguments holding n problems, for n
// of 1k, 10k and 100k: the cost per key should stay flat.
func BenchmarkManyKeys(b *testing.B) {
	srv := manyKeysServer(b)
	ctx := context.Background()
	for _, kind := range []string{"unknown", "map", "list", "duplicate"} {
		b.Run(kind, func(b *testing.B) {
			for _, n := range []int{1_000, 10_000, 100_000} {
				args := manyKeysArgs(kind, n)
				b.Run(fmt.Sprint(n), func(b *testing.B) {
					b.ReportAllocs()
					for range b.N {
						res, err := srv.CallTool(ctx, "small", args)
						if err != nil || !res.IsError {
							b.Fatalf("CallTool = %v, %v; want an error result", res, err)
						}
					}
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/key")
				})
			}
		})
	}
}
