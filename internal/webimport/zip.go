package webimport

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Unzip extracts a zip into dir, refusing what would lead out of it (a path with "..", an absolute
// path, a symlink) and stopping past maxBytes uncompressed. A zip whose files all sit in one folder
// (how a folder is zipped) answers that folder, so that the layout is read from it.
func Unzip(data []byte, dir string, maxBytes int64) (string, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return "", fmt.Errorf("not a zip file: %w", err)
	}
	var total int64
	tops := map[string]bool{}
	for _, f := range zr.File {
		name := strings.ReplaceAll(f.Name, `\`, "/")
		clean := path.Clean(name)
		if path.IsAbs(name) || clean == ".." || strings.HasPrefix(clean, "../") {
			return "", fmt.Errorf("%s: the path leads out of the zip", f.Name)
		}
		if f.Mode()&os.ModeSymlink != 0 {
			return "", fmt.Errorf("%s: a symlink (not imported: it could point out of the tree)", f.Name)
		}
		if strings.HasPrefix(clean, "__MACOSX/") || clean == "__MACOSX" {
			continue
		}
		top, _, nested := strings.Cut(clean, "/")
		if !nested && !f.FileInfo().IsDir() {
			top = "" // a file at the top
		}
		tops[top] = true
		target := filepath.Join(dir, filepath.FromSlash(clean))
		if f.FileInfo().IsDir() {
			if err := os.MkdirAll(target, 0o755); err != nil {
				return "", err
			}
			continue
		}
		if !f.Mode().IsRegular() {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return "", err
		}
		rc, err := f.Open()
		if err != nil {
			return "", fmt.Errorf("%s: %w", f.Name, err)
		}
		out, err := os.Create(target)
		if err != nil {
			rc.Close()
			return "", err
		}
		n, err := io.Copy(out, io.LimitReader(rc, maxBytes-total+1))
		rc.Close()
		out.Close()
		if err != nil {
			return "", fmt.Errorf("%s: %w", f.Name, err)
		}
		if total += n; total > maxBytes {
			return "", fmt.Errorf("the zip is over the %d-byte limit once extracted", maxBytes)
		}
	}
	if len(tops) == 1 {
		for top := range tops {
			if top != "" {
				if _, err := os.Stat(filepath.Join(dir, top, "SUMMARY.md")); err == nil || !fileExists(filepath.Join(dir, "SUMMARY.md")) {
					return filepath.Join(dir, top), nil
				}
			}
		}
	}
	return dir, nil
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
