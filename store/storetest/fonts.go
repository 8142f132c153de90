package storetest

import (
	"context"
	"testing"

	"github.com/quire-docs/quire/store"
)

// customFonts: a font keeps its faces by weight with their bytes, needs its regular weight (a
// write without it changes nothing), is its organization's only, and goes once.
func customFonts(t *testing.T, open Opener) {
	w := newWorld(t, open, nil)
	ctx := context.Background()
	woff2, otf := []byte("wOF2 regular"), []byte("OTTO bold")
	if store.FontFormat(woff2) != "woff2" || store.FontFormat(otf) != "opentype" || store.FontFormat([]byte("<svg>")) != "" {
		t.Fatal("FontFormat")
	}
	_, err := w.st.CreateCustomFont(ctx, w.org, "Acme", []store.CustomFontFace{{Weight: 700, Format: "opentype", StorageKey: "font/b", Data: otf}})
	wantCode(t, err, store.EINVALID)
	if fonts, _ := w.st.FindCustomFonts(ctx, w.org); len(fonts) != 0 {
		t.Fatalf("a refused font was kept: %+v", fonts)
	}
	f, err := w.st.CreateCustomFont(ctx, w.org, "Acme", []store.CustomFontFace{
		{Weight: 700, Format: "opentype", StorageKey: "font/b", Data: otf}, {Weight: 400, Format: "woff2", StorageKey: "font/r", Data: woff2}})
	if err != nil || f.Family != "Acme" || len(f.Faces) != 2 || f.Faces[0].Weight != 400 || f.Faces[0].Format != "woff2" ||
		f.Faces[0].StorageKey != "font/r" || len(f.Faces[0].SHA256) != 64 || f.Faces[1].Weight != 700 {
		t.Fatalf("created: %+v, %v", f, err)
	}
	if data, format, err := w.st.FindCustomFontFile(ctx, w.org, f.ID, 700); err != nil || string(data) != string(otf) || format != "opentype" {
		t.Fatalf("file: %q %q %v", data, format, err)
	}
	other, err := w.st.CreateOrganization(ctx, "Other", w.user)
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.st.FindCustomFont(ctx, other.ID, f.ID)
	wantCode(t, err, store.ENOTFOUND)
	_, _, err = w.st.FindCustomFontFile(ctx, other.ID, f.ID, 400)
	wantCode(t, err, store.ENOTFOUND)
	if got, err := w.st.FindCustomFont(ctx, "", f.ID); err != nil || got.ID != f.ID {
		t.Fatalf("any organization's: %+v %v", got, err)
	}

	family := "Acme 2"
	_, err = w.st.UpdateCustomFont(ctx, w.org, f.ID, store.CustomFontUpdate{Family: &family, Remove: []int{400}})
	wantCode(t, err, store.EINVALID)
	if got, _ := w.st.FindCustomFont(ctx, w.org, f.ID); got.Family != "Acme" || len(got.Faces) != 2 {
		t.Fatalf("a refused update changed the font: %+v", got)
	}
	upd, err := w.st.UpdateCustomFont(ctx, w.org, f.ID, store.CustomFontUpdate{Family: &family, Remove: []int{700},
		Set: []store.CustomFontFace{{Weight: 400, Format: "opentype", StorageKey: "font/r2", Data: otf}}})
	if err != nil || upd.Family != family || len(upd.Faces) != 1 || upd.Faces[0].StorageKey != "font/r2" {
		t.Fatalf("updated: %+v, %v", upd, err)
	}
	if data, _, _ := w.st.FindCustomFontFile(ctx, w.org, f.ID, 400); string(data) != string(otf) {
		t.Fatalf("replaced file: %q", data)
	}
	_, err = w.st.UpdateCustomFont(ctx, other.ID, f.ID, store.CustomFontUpdate{Family: &family})
	wantCode(t, err, store.ENOTFOUND)
	if gone, _ := w.st.DeleteCustomFont(ctx, other.ID, f.ID); gone {
		t.Fatal("deleted from another organization")
	}
	if gone, err := w.st.DeleteCustomFont(ctx, w.org, f.ID); err != nil || !gone {
		t.Fatalf("delete: %v %v", gone, err)
	}
	if gone, _ := w.st.DeleteCustomFont(ctx, w.org, f.ID); gone {
		t.Fatal("deleted twice")
	}
	_, _, err = w.st.FindCustomFontFile(ctx, w.org, f.ID, 400)
	wantCode(t, err, store.ENOTFOUND)
}
