package gitsync

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Replace writes a space into the checkout's project directory in place of the layout there: the
// files that layout reads (its pages, the files they link to, SUMMARY.md, .gitbook.yaml and
// .gitbook/assets/) go, every other file of the repository stays. tmp is a folder for the export
// to be written in first.
func (c *Checkout) Replace(sp *Space, tmp string) (Stats, error) {
	if im, err := Read(c.Dir, nil); err == nil {
		for _, f := range im.Layout {
			if err := os.Remove(filepath.Join(c.Dir, filepath.FromSlash(f))); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return Stats{}, err
			}
		}
	}
	if err := os.RemoveAll(filepath.Join(c.Dir, filepath.FromSlash(AssetsDir))); err != nil {
		return Stats{}, err
	}
	out, err := os.MkdirTemp(tmp, "export-*")
	if err != nil {
		return Stats{}, err
	}
	defer os.RemoveAll(out)
	layout := filepath.Join(out, "layout")
	realRoot, err := filepath.EvalSymlinks(c.Root)
	if err != nil {
		return Stats{}, err
	}
	stats, err := Export(layout, sp, nil)
	if err != nil {
		return stats, err
	}
	return stats, filepath.WalkDir(layout, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(layout, p)
		to := filepath.Join(c.Dir, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		// A symlinked folder of the repository is not followed out of it; a symlink where a
		// file goes is replaced.
		if real, err := filepath.EvalSymlinks(filepath.Dir(to)); err != nil || !inside(realRoot, real) {
			return gitErrorf("%s: a symlink of the repository leads out of it", filepath.ToSlash(rel))
		}
		if err := os.Remove(to); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return os.WriteFile(to, data, 0o644)
	})
}

// inside says whether path p is root or under it.
func inside(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
