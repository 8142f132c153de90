package web

import (
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/gen"
	"github.com/quire-docs/quire/internal/apiref"
)

// docsPage is quire's own API reference at /docs, rendered from the spec compiled into the binary
// (openapi.yaml, whose descriptions say how each operation behaves) on first request: the spec
// never changes while the binary runs, and most processes never show it.
type docsPage struct {
	once sync.Once
	page *apiref.Page
	err  error
}

func (d *docsPage) get() (*apiref.Page, error) {
	d.once.Do(func() {
		var doc *openapi3.T
		if doc, d.err = gen.GetSwagger(); d.err == nil {
			d.page, d.err = apiref.Render(apiref.FromKin(doc), "/docs/", "/openapi.yaml")
		}
	})
	return d.page, d.err
}

func (d *docsPage) serveHTML(c echo.Context) error {
	p, err := d.get()
	if err != nil {
		return err
	}
	p.ServeHTML(c.Response(), c.Request())
	return nil
}

func (d *docsPage) serveAsset(c echo.Context) error {
	p, err := d.get()
	if err != nil {
		return err
	}
	if c.Request().URL.Path != p.StyleURL {
		return echo.ErrNotFound
	}
	p.ServeStyle(c.Response(), c.Request())
	return nil
}
