package relayer

import (
	"encoding/json"
	"errors"
	"net/http"
	"testing"

	"github.com/seed018cc74c/vaultd/gen/relayerapi"
	"github.com/seed018cc74c/vaultd/service/edge"
	"github.com/seed018cc74c/vaultd/service/vault/zk"
)

// FuzzParseRequest: whatever JSON arrives (the validator lets less through than this), parsing
// never panics, and it either refuses with a client error (400 or 422 with a relayer code) or
// yields signals below r, a nullifier taken from them and a positive amount below 2^256.
func FuzzParseRequest(f *testing.F) {
	f.Add([]byte(`{"proof":{"pi_a":["1","2","1"],"pi_b":[["1","2"],["3","4"],["1","0"]],"pi_c":["1","2","1"]},"publicSignals":["0x1","0x2","0x3","0x4","0x0","0x6"],"recipient":"0x0000000000000000000000000000000000000001","tokenAddress":"0x0000000000000000000000000000000000000002","amount":"3"}`))
	f.Add([]byte(`{"publicSignals":["0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001"]}`))
	f.Add([]byte(`{"amount":"115792089237316195423570985008687907853269984665640564039457584007913129639936"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var req relayerapi.RevealRequest
		if json.Unmarshal(data, &req) != nil {
			return
		}
		in, err := parseReveal(req, "")
		if err != nil {
			var e *edge.Error
			if !errors.As(answer(err), &e) || (e.Status != http.StatusBadRequest && e.Status != http.StatusUnprocessableEntity) {
				t.Fatalf("parse refused with %v", err)
			}
			return
		}
		for i, s := range in.signals {
			if s == nil || s.Sign() < 0 || s.Cmp(zk.ScalarField) >= 0 {
				t.Fatalf("signal %d = %v accepted", i, s)
			}
		}
		if in.nullifier.Big().Cmp(in.signals[zk.SignalNullifier]) != 0 {
			t.Fatal("nullifier not taken from its signal")
		}
		if in.amount.Sign() <= 0 || in.amount.Cmp(maxUint256) > 0 {
			t.Fatalf("amount %s accepted", in.amount)
		}
	})
}
