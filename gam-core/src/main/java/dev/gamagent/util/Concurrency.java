package dev.gamagent.util;

import java.lang.reflect.Method;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Executors for concurrent backend calls. On Java 21+ a virtual-thread-per-task executor (looked up
 * reflectively, since we compile for 17); on 17 a bounded cached pool of daemon threads.
 */
public final class Concurrency {
    private Concurrency() { }

    public static boolean virtualThreadsAvailable() { return lookupVirtual() != null; }

    /** An executor for I/O-bound tasks (backend calls). {@code maxThreadsOn17} bounds the fallback pool. */
    public static ExecutorService newIoExecutor(String name, int maxThreadsOn17) {
        Method m = lookupVirtual();
        if (m != null) {
            try {
                return (ExecutorService) m.invoke(null);
            } catch (ReflectiveOperationException e) {
                // fall through to the platform pool
            }
        }
        AtomicInteger n = new AtomicInteger();
        ThreadFactory tf = r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
        var pool = new java.util.concurrent.ThreadPoolExecutor(maxThreadsOn17, maxThreadsOn17, 30,
                java.util.concurrent.TimeUnit.SECONDS, new java.util.concurrent.LinkedBlockingQueue<>(), tf);
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    public static ExecutorService newIoExecutor(String name) { return newIoExecutor(name, 64); }

    private static Method lookupVirtual() {
        try {
            return Executors.class.getMethod("newVirtualThreadPerTaskExecutor");
        } catch (NoSuchMethodException e) {
            return null;
        }
    }
}
