package dev.gamagent.eval.data.m3mad;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** The expected values were printed by CPython 3.11.7 (the commands are beside each). */
class PythonRandomTest {
    private static List<Integer> shuffled(long seed, int n) {
        List<Integer> l = new ArrayList<>(IntStream.range(0, n).boxed().toList());
        new PythonRandom(seed).shuffle(l);
        return l;
    }

    @Test void seedAndGetrandbitsAreCPythons() {
        // random.seed(2024); [random.getrandbits(32) for _ in range(3)]
        PythonRandom r = new PythonRandom(2024);
        assertThat(List.of(r.getrandbits(32), r.getrandbits(32), r.getrandbits(32))).containsExactly(2019024262L, 780421486L, 3127871324L);
        // random.seed(2**40+5); [random.getrandbits(32) for _ in range(2)]  (a seed of two 32-bit words)
        PythonRandom big = new PythonRandom((1L << 40) + 5);
        assertThat(List.of(big.getrandbits(32), big.getrandbits(32))).containsExactly(2166296868L, 2220160828L);
    }

    @Test void shuffleIsCPythons() {
        // random.seed(2024); x=list(range(20)); random.shuffle(x)
        assertThat(shuffled(2024, 20)).containsExactly(0, 2, 16, 1, 10, 19, 17, 18, 7, 3, 8, 4, 14, 11, 12, 13, 6, 9, 5, 15);
        // random.seed(2024); x=list(range(1000)); random.shuffle(x); x[:12], x[-3:]
        List<Integer> k = shuffled(2024, 1000);
        assertThat(k.subList(0, 12)).containsExactly(525, 284, 771, 351, 246, 797, 94, 116, 663, 800, 153, 615);
        assertThat(k.subList(997, 1000)).containsExactly(745, 186, 481);
        // random.seed(7); y=list(range(5)); random.shuffle(y)
        assertThat(shuffled(7, 5)).containsExactly(4, 0, 3, 1, 2);
    }
}
