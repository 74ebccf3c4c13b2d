package edge

import (
	"io"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// logLinesDropped counts the log lines a LogWriter could not keep (its buffer full); every
// service's registry (NewRegistry) serves it.
var logLinesDropped = prometheus.NewCounter(prometheus.CounterOpts{
	Namespace: Namespace, Name: "log_lines_dropped_total",
	Help: "Log lines dropped because the log's buffer was full (the output could not keep up).",
})

// Buffer sizes of a LogWriter: past logKick bytes waiting the writer is woken at once; past
// logMax a line is dropped (and counted) rather than the request writing it made to wait. Its
// two buffers (one filling, one being written) are made logBuf long once, room for the lines
// that come while the writer waits for a core (on a busy machine, milliseconds: hundreds of
// KiB of GET /tokens' access lines); grown a line at a time after each batch instead, they cost
// the handler 5 % of its time.
const (
	logKick = 64 << 10
	logBuf  = 1 << 20
	logMax  = 4 << 20
)

// LogWriter is the output of a service's logs: Write copies a line into a buffer, and one
// goroutine writes what has gathered in one write(2) at least every interval (at once past
// 64 KiB), so a request's access line costs no system call. Write never waits on the output:
// when 4 MiB are waiting, the line is dropped and counted (vaultd_log_lines_dropped_total).
// Flush writes what waits now; Close writes the rest and stops the goroutine, after which
// lines are written as they come.
type LogWriter struct {
	out  io.Writer
	kick chan struct{}
	stop chan struct{}
	done chan struct{}

	closing sync.Once

	mu      sync.Mutex // guards buf and closed
	buf     []byte
	closed  bool
	writing sync.Mutex // one write to out at a time, in the order the lines came
	spare   []byte     // the buffer out was last written from (under writing)
}

// NewLogWriter starts a LogWriter writing to out at least every interval.
func NewLogWriter(out io.Writer, interval time.Duration) *LogWriter {
	w := &LogWriter{out: out, kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{}),
		buf: make([]byte, 0, logBuf), spare: make([]byte, 0, logBuf)}
	go w.run(interval)
	return w
}

func (w *LogWriter) run(interval time.Duration) {
	defer close(w.done)
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-t.C:
		case <-w.kick:
		}
		w.Flush()
	}
}

// Write keeps a copy of p (one log line) for the next batch; it never fails.
func (w *LogWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		w.writing.Lock()
		defer w.writing.Unlock()
		return w.out.Write(p)
	}
	if len(w.buf)+len(p) > logMax {
		w.mu.Unlock()
		logLinesDropped.Inc()
		return len(p), nil
	}
	w.buf = append(w.buf, p...)
	full := len(w.buf) >= logKick
	w.mu.Unlock()
	if full {
		select {
		case w.kick <- struct{}{}:
		default: // already woken
		}
	}
	return len(p), nil
}

// Flush writes the lines waiting now.
func (w *LogWriter) Flush() error {
	w.writing.Lock()
	defer w.writing.Unlock()
	w.mu.Lock()
	batch := w.buf
	w.buf = w.spare[:0]
	w.mu.Unlock()
	w.spare = batch
	if len(batch) == 0 {
		return nil
	}
	_, err := w.out.Write(batch)
	if cap(batch) > logBuf { // a burst's larger buffer is not kept for good
		w.spare = make([]byte, 0, logBuf)
	}
	return err
}

// Close writes every line still waiting and stops the goroutine; lines written after it go to
// the output at once, after the last batch.
func (w *LogWriter) Close() error {
	w.closing.Do(func() { close(w.stop); <-w.done })
	w.writing.Lock()
	defer w.writing.Unlock()
	w.mu.Lock()
	w.closed = true
	batch := w.buf
	w.buf = nil
	w.mu.Unlock()
	if len(batch) == 0 {
		return nil
	}
	_, err := w.out.Write(batch)
	return err
}
