package dev.gamagent.api;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Every method by the name users type. {@code dream+<method>} wraps any debate method. Unknown names
 * get an error listing the known ones.
 */
public final class MethodRegistry {
    private static final Map<String, Supplier<Method>> METHODS = new LinkedHashMap<>();

    static {
        METHODS.put("single", dev.gamagent.baseline.SingleMethod::new);
        METHODS.put("cot", dev.gamagent.baseline.CotMethod::new);
        METHODS.put("sc", dev.gamagent.baseline.SelfConsistencyMethod::new);
        METHODS.put("vote", dev.gamagent.baseline.VoteMethod::new);
        METHODS.put("debate", dev.gamagent.baseline.DebateMethod::new);
        METHODS.put("self-debate", dev.gamagent.baseline.SelfDebateMethod::new);
        METHODS.put("mad", dev.gamagent.baseline.MadMethod::new);
        METHODS.put("div-mad", () -> new dev.gamagent.baseline.MadMethod("div-mad")); // DREAM's name for MAD
        METHODS.put("dmad", dev.gamagent.baseline.DmadMethod::new);
        METHODS.put("chateval", dev.gamagent.baseline.ChatEvalMethod::new);
        METHODS.put("debunc", dev.gamagent.baseline.DebuncMethod::new);
        METHODS.put("dwi", dev.gamagent.baseline.DwiMethod::new);
        METHODS.put("gam", dev.gamagent.gam.GamMethod::new);
    }

    /** The debate-style methods DREAM wraps (DESIGN.md §7; docs/CONTRACTS.md §4), listed as "dream+<m>". */
    private static final List<String> DREAM_WRAPPED = List.of("debate", "self-debate", "mad", "div-mad", "dmad", "chateval",
            "debunc", "dwi", "gam");

    private MethodRegistry() { }

    public static Method create(String name) {
        if (name == null || name.isBlank()) throw new IllegalArgumentException("no method named; known: " + String.join(", ", listed()));
        String n = name.strip().toLowerCase(java.util.Locale.ROOT);
        Supplier<Method> s = METHODS.get(n);
        if (s != null) return s.get();
        if (n.startsWith(dev.gamagent.dream.DreamMethod.PREFIX)) {
            return new dev.gamagent.dream.DreamMethod(create(n.substring(dev.gamagent.dream.DreamMethod.PREFIX.length())));
        }
        throw new IllegalArgumentException("unknown method '" + name + "'; known: " + String.join(", ", listed()));
    }

    /** The registered methods, without the DREAM wrappers. */
    public static List<String> names() { return List.copyOf(METHODS.keySet()); }

    /** Every name users can pick: the registered methods, then "dream+<m>" for each debate method. */
    public static List<String> listed() {
        List<String> all = new java.util.ArrayList<>(METHODS.keySet());
        for (String m : DREAM_WRAPPED) if (METHODS.containsKey(m)) all.add(dev.gamagent.dream.DreamMethod.PREFIX + m);
        return List.copyOf(all);
    }
}
