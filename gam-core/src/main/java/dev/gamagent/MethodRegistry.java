package dev.gamagent;

import dev.gamagent.api.Method;
import dev.gamagent.baseline.ChatEvalMethod;
import dev.gamagent.baseline.CotMethod;
import dev.gamagent.baseline.DebateMethod;
import dev.gamagent.baseline.DebuncMethod;
import dev.gamagent.baseline.DmadMethod;
import dev.gamagent.baseline.DwiMethod;
import dev.gamagent.baseline.MadMethod;
import dev.gamagent.baseline.SelfConsistencyMethod;
import dev.gamagent.baseline.SelfDebateMethod;
import dev.gamagent.baseline.SingleMethod;
import dev.gamagent.baseline.VoteMethod;
import dev.gamagent.dream.DreamMethod;
import dev.gamagent.gam.GamMethod;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Every method by the name users type. {@code dream+<method>} wraps any debate method. Unknown names
 * get an error listing the known ones.
 */
public final class MethodRegistry {
    private static final Map<String, Supplier<Method>> METHODS = methods();

    private static Map<String, Supplier<Method>> methods() {
        Map<String, Supplier<Method>> out = new LinkedHashMap<>();
        out.put("single", SingleMethod::new);
        out.put("cot", CotMethod::new);
        out.put("sc", SelfConsistencyMethod::new);
        out.put("vote", VoteMethod::new);
        out.put("debate", DebateMethod::new);
        out.put("self-debate", SelfDebateMethod::new);
        out.put("mad", MadMethod::new);
        out.put("div-mad", () -> new MadMethod("div-mad")); // DREAM's name for MAD
        out.put("dmad", DmadMethod::new);
        out.put("chateval", ChatEvalMethod::new);
        out.put("debunc", DebuncMethod::new);
        out.put("dwi", DwiMethod::new);
        out.put("gam", GamMethod::new);
        return Collections.unmodifiableMap(out);
    }

    /** The debate-style methods DREAM wraps (docs/design.md §7; docs/CONTRACTS.md §4), listed as "dream+<m>". */
    private static final List<String> DREAM_WRAPPED = List.of("debate", "self-debate", "mad", "div-mad", "dmad", "chateval",
            "debunc", "dwi", "gam");

    private MethodRegistry() { }

    public static Method create(String name) {
        if (name == null || name.isBlank()) throw new IllegalArgumentException("no method named; known: " + String.join(", ", listed()));
        String n = name.strip().toLowerCase(Locale.ROOT);
        Supplier<Method> s = METHODS.get(n);
        if (s != null) return s.get();
        String inner = n.startsWith(DreamMethod.PREFIX) ? n.substring(DreamMethod.PREFIX.length()) : null;
        // dream+<a method> (dream+dream+x reaches DreamMethod, which refuses to wrap itself); a typo is suggested as a whole below
        if (inner != null && (METHODS.containsKey(inner) || inner.startsWith(DreamMethod.PREFIX))) return new DreamMethod(create(inner));
        String near = nearest(n);
        String what = inner != null ? "'" + inner + "' (in '" + name.strip() + "')" : "'" + name + "'";
        throw new IllegalArgumentException("unknown method " + what + "; " + (near == null ? "" : "did you mean " + near + "? ")
                + "known: " + String.join(", ", listed()));
    }

    /** The listed name a typo most likely meant (at most max(2, a third of its length) edits, a swap of neighbours counting one), or null. */
    static String nearest(String name) {
        String best = null;
        int bestD = Integer.MAX_VALUE;
        for (String m : listed()) {
            int d = dev.gamagent.util.EditDistance.withTranspositions(name, m);
            if (d < bestD) { bestD = d; best = m; }
        }
        return bestD <= Math.max(2, name.length() / 3) ? best : null;
    }

    /** The registered methods, without the DREAM wrappers. */
    public static List<String> names() { return List.copyOf(METHODS.keySet()); }

    /** Every name users can pick: the registered methods, then "dream+<m>" for each debate method. */
    public static List<String> listed() {
        List<String> all = new ArrayList<>(METHODS.keySet());
        for (String m : DREAM_WRAPPED) if (METHODS.containsKey(m)) all.add(DreamMethod.PREFIX + m);
        return List.copyOf(all);
    }
}
