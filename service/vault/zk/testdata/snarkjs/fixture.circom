pragma circom 2.0.0;

// A small circuit with six public signals, like the reveal: one output (c = a * b) and five
// public inputs bound by squaring. Only its proof format matters to the tests.
template Fixture() {
    signal input a;
    signal input b;
    signal input p[5];
    signal output c;
    signal sq[5];
    c <== a * b;
    for (var i = 0; i < 5; i++) {
        sq[i] <== p[i] * p[i];
    }
}

component main {public [p]} = Fixture();
