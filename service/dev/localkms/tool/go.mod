module github.com/seed018cc74c/vaultd/service/dev/localkms/tool

go 1.26.8

tool github.com/nsmithuk/local-kms

require (
	github.com/aws/aws-sdk-go v1.44.295 // indirect
	github.com/btcsuite/btcd/btcec/v2 v2.3.2 // indirect
	github.com/decred/dcrd/dcrec/secp256k1/v4 v4.1.0 // indirect
	github.com/gofrs/uuid v4.2.0+incompatible // indirect
	github.com/golang/snappy v0.0.4 // indirect
	github.com/jmespath/go-jmespath v0.4.0 // indirect
	github.com/konsorten/go-windows-terminal-sequences v1.0.2 // indirect
	github.com/nsmithuk/local-kms v0.0.0-20260228092603-2a5e92d09ab6 // indirect
	github.com/sirupsen/logrus v1.4.2 // indirect
	github.com/syndtr/goleveldb v1.0.1-0.20210819022825-2ae1ddf74ef7 // indirect
	golang.org/x/sys v0.5.0 // indirect
	gopkg.in/yaml.v2 v2.4.0 // indirect
)
