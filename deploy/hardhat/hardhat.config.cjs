// Hardhat Network as .ci/hardhat runs it: chain id 31337, a block per transaction, and the
// default accounts (the well-known test mnemonic: public keys, test chains only).
module.exports = {
  networks: {
    hardhat: {
      chainId: 31337,
    },
  },
};
