package funding

import (
	"context"
	"database/sql"
	"errors"
	"math/big"
	"path/filepath"
	"testing"

	"github.com/ethereum/go-ethereum/common"

	"github.com/seed018cc74c/vaultd/service/edge/edgetest"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb"
	"github.com/seed018cc74c/vaultd/service/kit/sqldb/sqldbtest"
)

// Two reservations of one nullifier's reveal at once, on Postgres shared without REDIS_URL (no
// hold orders them), each with a voucher of its own or both with the same one (two attempts at
// one reveal): both read that no charge is held, then wait for the sponsor's row, which a third
// transaction holds until both wait. The second to write finds the first's charge and is refused
// (ErrInProgress: the relayer answers NULLIFIER_USED), its transaction rolled back: one charge row, the sponsor's reserved exactly that charge, one voucher used; the charge
// released, nothing is left reserved or used.
func TestConcurrentReservationsOfOneNullifierLeaveOneCharge(t *testing.T) {
	t.Parallel()
	a, b := common.HexToHash("0xa1").Hex(), common.HexToHash("0xb2").Hex()
	t.Run("VouchersOfTheirOwn", func(t *testing.T) { t.Parallel(); reserveTwiceAtOnce(t, a, b) })
	t.Run("OneVoucher", func(t *testing.T) { t.Parallel(); reserveTwiceAtOnce(t, a, a) })
}

// reserveTwiceAtOnce is TestConcurrentReservationsOfOneNullifierLeaveOneCharge with these two
// vouchers.
func reserveTwiceAtOnce(t *testing.T, ids ...string) {
	ctx := context.Background()
	db, s := openAccounts(t, sqldbtest.Postgres(t))
	sp, _, err := s.Create(ctx, "Card Issuer Ltd", common.HexToAddress("0x01"))
	if err != nil {
		t.Fatal(err)
	}
	credit, _ := new(big.Int).SetString("1000000000000000000", 10)
	if _, err := s.Credit(ctx, sp.ID, credit, ""); err != nil {
		t.Fatal(err)
	}
	nullifier, worst := common.HexToHash("0x2a"), big.NewInt(300_000_000_000_000)

	blocker, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.lock(ctx, blocker, sp.ID); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 2)
	for _, voucher := range ids {
		go func() {
			done <- s.reserve(ctx, nullifier, payer{sponsor: sp.ID, voucher: voucher, allowance: credit}, worst)
		}()
	}
	edgetest.WaitFor(t, "both reservations waiting for the sponsor's row", func() bool {
		var waiting int
		err := db.QueryRowContext(ctx, `SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`).Scan(&waiting)
		return err == nil && waiting == 2
	})
	if err := blocker.Rollback(); err != nil {
		t.Fatal(err)
	}
	var refused int
	for range 2 {
		err := <-done
		switch {
		case errors.Is(err, ErrInProgress):
			refused++
		case err != nil:
			t.Fatalf("a reservation failed: %v, want it refused as the reveal in progress (ErrInProgress)", err)
		}
	}
	if refused != 1 {
		t.Errorf("%d of two reservations at once refused, want one", refused)
	}

	var charges, vouchers int
	var held string
	if err := db.QueryRowContext(ctx, `SELECT count(*), COALESCE(MAX(reserved), '') FROM sponsor_charges WHERE state = 'reserved'`).Scan(&charges, &held); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM sponsor_vouchers`).Scan(&vouchers); err != nil {
		t.Fatal(err)
	}
	got, err := s.get(ctx, sp.ID)
	if err != nil {
		t.Fatal(err)
	}
	if charges != 1 || held != worst.String() || got.Reserved.Cmp(worst) != 0 || vouchers != 1 {
		t.Fatalf("after two reservations at once: %d charges holding %s, the sponsor reserving %s, %d vouchers used; want one charge of %s, reserved once, one voucher",
			charges, held, got.Reserved, vouchers, worst)
	}
	if err := s.release(ctx, nullifier); err != nil {
		t.Fatal(err)
	}
	got, err = s.get(ctx, sp.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRowContext(ctx, `SELECT count(*) FROM sponsor_vouchers`).Scan(&vouchers); err != nil {
		t.Fatal(err)
	}
	if got.Reserved.Sign() != 0 || vouchers != 0 {
		t.Fatalf("released, the sponsor still reserves %s and %d vouchers are used", got.Reserved, vouchers)
	}
}

// A charge settled (its reveal mined and reverted: the nullifier is free again) is replaced by
// the next reservation of the same reveal, on SQLite and on Postgres; a charge still reserved
// for another payer is taken over (its process died before giving it back), the first payer's
// reservation given back.
func TestAReservationReplacesASettledCharge(t *testing.T) {
	t.Parallel()
	for dialect, url := range map[string]func() string{
		"sqlite":   func() string { return "sqlite:" + filepath.Join(t.TempDir(), "relayer.db") },
		"postgres": func() string { return sqldbtest.Postgres(t) },
	} {
		t.Run(dialect, func(t *testing.T) {
			ctx := context.Background()
			_, s := openAccounts(t, url())
			var ids []string
			for _, name := range []string{"First", "Second"} {
				sp, _, err := s.Create(ctx, name, common.Address{})
				if err != nil {
					t.Fatal(err)
				}
				if _, err := s.Credit(ctx, sp.ID, big.NewInt(1_000_000), ""); err != nil {
					t.Fatal(err)
				}
				ids = append(ids, sp.ID)
			}
			nullifier, worst := common.HexToHash("0x2b"), big.NewInt(1000)
			reserved := func(id string) int64 {
				t.Helper()
				sp, err := s.get(ctx, id)
				if err != nil {
					t.Fatal(err)
				}
				return sp.Reserved.Int64()
			}
			if err := s.reserve(ctx, nullifier, payer{sponsor: ids[0]}, worst); err != nil {
				t.Fatal(err)
			}
			if err := s.inTx(ctx, func(tx *sql.Tx) error {
				_, err := s.settle(ctx, tx, nullifier, true, big.NewInt(700)) // mined and reverted: its gas paid
				return err
			}); err != nil {
				t.Fatal(err)
			}
			if err := s.reserve(ctx, nullifier, payer{sponsor: ids[0]}, worst); err != nil {
				t.Fatalf("a reservation after a settled charge: %v", err)
			}
			if err := s.reserve(ctx, nullifier, payer{sponsor: ids[1]}, worst); err != nil {
				t.Fatalf("a reservation of another payer after a charge left reserved: %v", err)
			}
			if a, b := reserved(ids[0]), reserved(ids[1]); a != 0 || b != worst.Int64() {
				t.Fatalf("the first sponsor reserves %d, the second %d; want 0 and %s", a, b, worst)
			}
			if err := s.release(ctx, nullifier); err != nil {
				t.Fatal(err)
			}
			if a, b := reserved(ids[0]), reserved(ids[1]); a != 0 || b != 0 {
				t.Fatalf("released, the sponsors reserve %d and %d", a, b)
			}
		})
	}
}

// openAccounts opens the sponsors' accounts in the database at url, closed when the test ends.
func openAccounts(t *testing.T, url string) (*sqldb.DB, *Accounts) {
	t.Helper()
	db, err := sqldb.Open(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s, err := OpenAccounts(db, 1337, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	return db, s
}
