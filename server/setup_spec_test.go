package server

import (
	"reflect"
	"testing"

	"github.com/quire-docs/quire/gen"
)

// The spec quire serves by is the document gen.GetSpec loads, though read with encoding/json
// (loadEmbeddedSpec says why).
func TestEmbeddedSpecLoadsAsGenerated(t *testing.T) {
	t.Parallel()
	got, err := loadEmbeddedSpec()
	if err != nil {
		t.Fatal(err)
	}
	want, err := gen.GetSpec()
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatal("the embedded spec read with encoding/json differs from gen.GetSpec's")
	}
}
