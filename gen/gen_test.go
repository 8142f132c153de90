package gen_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGeneratedCodeIsFresh regenerates every file from ../openapi.yaml and fails when the
// committed gen/ differs: `make generate` is the only way gen/ may change.
func TestGeneratedCodeIsFresh(t *testing.T) {
	configs, err := filepath.Glob("cfg-*.yaml")
	if err != nil || len(configs) == 0 {
		t.Fatalf("no generator configs: %v", err)
	}
	dir := t.TempDir()
	for _, cfg := range configs {
		raw, err := os.ReadFile(cfg)
		if err != nil {
			t.Fatal(err)
		}
		var output string
		for _, line := range strings.Split(string(raw), "\n") {
			if v, ok := strings.CutPrefix(line, "output:"); ok {
				output = strings.TrimSpace(v)
			}
		}
		fresh := filepath.Join(dir, output)
		freshCfg := filepath.Join(dir, cfg)
		if err := os.WriteFile(freshCfg, []byte(strings.Replace(string(raw), "output: "+output, "output: "+fresh, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("go", "tool", "oapi-codegen", "-config", freshCfg, "../openapi.yaml")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("oapi-codegen %s: %v\n%s", cfg, err, out)
		}
		want, err := os.ReadFile(fresh)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(output)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("gen/%s is stale: run `make generate` and commit gen/", output)
		}
	}
}
