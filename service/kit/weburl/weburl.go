// Package weburl holds the one rule for a web address a client is sent to (a relayer a
// directory lists, a card's redeem page): https, or plain http to this machine alone, where no one
// on the network path can read or change what is sent.
package weburl

import (
	"errors"
	"net/netip"
	"net/url"
	"strings"
)

// The ways a URL fails Secure.
var (
	ErrScheme    = errors.New("must be an https:// URL")
	ErrNoHost    = errors.New("has no host")
	ErrPlainHTTP = errors.New("must be https:// (http:// is accepted on a loopback host only)")
)

// Secure checks that u is an https URL with a host, or an http one whose host is a loopback
// host (a dev stack): ErrScheme, ErrNoHost or ErrPlainHTTP otherwise. Over plain http anyone on
// the network path can read and change the page, so only this machine is trusted with it.
func Secure(u *url.URL) error {
	scheme := strings.ToLower(u.Scheme)
	switch {
	case scheme != "https" && scheme != "http":
		return ErrScheme
	case u.Opaque != "" || u.Host == "" || u.Hostname() == "":
		return ErrNoHost
	case scheme == "http" && !Loopback(u.Hostname()):
		return ErrPlainHTTP
	}
	return nil
}

// Loopback reports whether host names this machine: localhost, or a loopback IP
// (127.0.0.0/8, ::1).
func Loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}
