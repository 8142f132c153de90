package server

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/quire-docs/quire/store"
)

// Metrics are the Prometheus collectors of one quire process: requests by route and status,
// requests in flight, panics recovered by route, job runs and failures by kind, the job queue and the database pools. They
// are served on their own address (quire serve --metrics-addr), never beside the API.
type Metrics struct {
	registry    *prometheus.Registry
	requests    *prometheus.CounterVec
	duration    *prometheus.HistogramVec
	inFlight    prometheus.Gauge
	jobRuns     *prometheus.CounterVec
	jobFailures *prometheus.CounterVec
	panics      *prometheus.CounterVec
}

// NewMetrics registers quire's collectors and Go's runtime and process collectors; the store's
// (job queue, connection pools) join when the metrics are given to Server.Handler.
func NewMetrics() *Metrics {
	m := &Metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "quire_http_requests_total", Help: "HTTP requests answered, by route, method and status.",
		}, []string{"route", "method", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "quire_http_request_duration_seconds", Help: "Time to answer HTTP requests, by route and method.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 10},
		}, []string{"route", "method"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "quire_http_requests_in_flight", Help: "HTTP requests being answered now.",
		}),
		jobRuns: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "quire_job_runs_total", Help: "Durable job runs, by kind.",
		}, []string{"kind"}),
		jobFailures: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "quire_job_failures_total", Help: "Durable job runs that failed, by kind.",
		}, []string{"kind"}),
		panics: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "quire_http_panics_total", Help: "Panics recovered while answering HTTP requests (each a bug, logged with its stack), by route.",
		}, []string{"route"}),
	}
	m.registry.MustRegister(m.requests, m.duration, m.inFlight, m.jobRuns, m.jobFailures, m.panics,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// watch adds a store's job queue and connection pools to what is scraped.
func (m *Metrics) watch(st store.Admin) {
	m.registry.Register(storeCollector{st}) // already registered: nothing to do
}

// Handler serves the metrics in Prometheus' text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
}

// ObserveJob counts one run of a job (the job runner's hook).
func (m *Metrics) ObserveJob(kind string, err error) {
	m.jobRuns.WithLabelValues(kind).Inc()
	if err != nil {
		m.jobFailures.WithLabelValues(kind).Inc()
	}
}

func (m *Metrics) middleware(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		m.inFlight.Inc()
		start := time.Now()
		err := next(c)
		if err != nil {
			c.Error(err) // the status is known only once the error is answered
		}
		m.inFlight.Dec()
		route := c.Path()
		if route == "" {
			route = "unmatched"
		}
		method := c.Request().Method
		m.requests.WithLabelValues(route, method, strconv.Itoa(c.Response().Status)).Inc()
		m.duration.WithLabelValues(route, method).Observe(time.Since(start).Seconds())
		return nil
	}
}

// storeCollector reads the job queue and the connection pools when metrics are scraped.
type storeCollector struct{ st store.Admin }

var (
	jobsPendingDesc = prometheus.NewDesc("quire_jobs_pending", "Durable jobs waiting to run, by kind.", []string{"kind"}, nil)
	dbOpenDesc      = prometheus.NewDesc("quire_db_connections", "Database connections, by pool and state.", []string{"pool", "state"}, nil)
	dbWaitDesc      = prometheus.NewDesc("quire_db_waits_total", "Waits for a free database connection, by pool.", []string{"pool"}, nil)
)

func (storeCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- jobsPendingDesc
	ch <- dbOpenDesc
	ch <- dbWaitDesc
}

func (c storeCollector) Collect(ch chan<- prometheus.Metric) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if pending, err := c.st.PendingJobs(ctx); err == nil {
		for kind, n := range pending {
			ch <- prometheus.MustNewConstMetric(jobsPendingDesc, prometheus.GaugeValue, float64(n), kind)
		}
	}
	for pool, s := range c.st.PoolStats() {
		ch <- prometheus.MustNewConstMetric(dbOpenDesc, prometheus.GaugeValue, float64(s.InUse), pool, "in_use")
		ch <- prometheus.MustNewConstMetric(dbOpenDesc, prometheus.GaugeValue, float64(s.Idle), pool, "idle")
		ch <- prometheus.MustNewConstMetric(dbWaitDesc, prometheus.CounterValue, float64(s.WaitCount), pool)
	}
}
