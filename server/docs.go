package server

import (
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/labstack/echo/v4"
	"github.com/quire-docs/quire/internal/apiref"
)

// docsPage is the API reference at /docs, rendered from the embedded spec on first request (the
// spec never changes while the binary runs, and most processes never show it).
type docsPage struct {
	doc  *openapi3.T
	once sync.Once
	page *apiref.Page
	err  error
}

func (d *docsPage) get() (*apiref.Page, error) {
	d.once.Do(func() { d.page, d.err = apiref.Render(apiref.FromKin(d.doc), "/docs/", "/openapi.yaml") })
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
