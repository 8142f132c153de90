package server

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"sync"

	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/gen"
	yaml "go.yaml.in/yaml/v3"
)

// The contract, served: GET /openapi.json and GET /openapi.yaml answer openapi.yaml as this
// binary was built from it, without a token, so clients can be generated from a running quire.
type contractFile struct {
	body        []byte
	etag        string
	contentType string
}

// contractFiles are the two renderings of the embedded spec by path, each made on its first
// request and kept (the spec never changes while the binary runs, and every Handler shares them):
// the JSON as it is embedded, and YAML (JSON read as YAML keeps the key order; only the style
// changes from flow to block). Rendering the YAML costs more than the rest of a server's start, so
// a quire that is never asked for it never pays.
var contractFiles = map[string]func() (contractFile, error){
	"/openapi.json": sync.OnceValues(contractJSON),
	"/openapi.yaml": sync.OnceValues(contractYAML),
}

func contractJSON() (contractFile, error) {
	js, err := gen.GetSpecJSON()
	if err != nil {
		return contractFile{}, fmt.Errorf("server: unable to load the embedded spec: %w", err)
	}
	return newContractFile(js, "application/json"), nil
}

func contractYAML() (contractFile, error) {
	js, err := gen.GetSpecJSON()
	if err != nil {
		return contractFile{}, fmt.Errorf("server: unable to load the embedded spec: %w", err)
	}
	var node yaml.Node
	if err := yaml.Unmarshal(js, &node); err != nil {
		return contractFile{}, fmt.Errorf("server: unable to read the embedded spec: %w", err)
	}
	blockStyle(&node)
	var y bytes.Buffer
	enc := yaml.NewEncoder(&y)
	enc.SetIndent(2)
	if err := enc.Encode(&node); err != nil {
		return contractFile{}, fmt.Errorf("server: unable to write the spec as YAML: %w", err)
	}
	return newContractFile(y.Bytes(), "application/yaml"), nil
}

func newContractFile(body []byte, contentType string) contractFile {
	sum := sha256.Sum256(body)
	return contractFile{body: body, etag: `"` + hex.EncodeToString(sum[:8]) + `"`, contentType: contentType}
}

func blockStyle(n *yaml.Node) {
	if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
		n.Style = 0
	}
	if n.Kind == yaml.ScalarNode && n.Style == yaml.DoubleQuotedStyle && n.Tag == "!!str" {
		n.Style = 0 // the encoder quotes again where YAML needs it
	}
	for _, c := range n.Content {
		blockStyle(c)
	}
}

// serveContract answers the file render makes.
func serveContract(render func() (contractFile, error)) echo.HandlerFunc {
	return func(c echo.Context) error {
		f, err := render()
		if err != nil {
			return err
		}
		return f.serve(c)
	}
}

func (f contractFile) serve(c echo.Context) error {
	h := c.Response().Header()
	h.Set("ETag", f.etag)
	h.Set("Cache-Control", "public, max-age=300")
	if c.Request().Header.Get("If-None-Match") == f.etag {
		return c.NoContent(http.StatusNotModified)
	}
	return c.Blob(http.StatusOK, f.contentType, f.body)
}
