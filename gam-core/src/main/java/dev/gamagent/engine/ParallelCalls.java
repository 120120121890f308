package dev.gamagent.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;
import java.util.function.Function;

/**
 * Runs a round's agent calls in parallel on the run's executor and returns their results in the jobs' order: the one
 * way every method (gam's experts and critics, the baselines' panels, DREAM's probes) calls its agents at once.
 * <p>
 * The calling thread runs any job no pool thread has started yet ({@link FutureTask#run} is a no-op once started), so
 * a saturated executor that is also running this question cannot deadlock it. Results come back in job order whatever
 * order the jobs finish in. A job that throws ends the wait there: its cause goes through {@code failed} (each caller
 * words its own error); an interrupted wait cancels the jobs and throws {@link IllegalStateException} with
 * {@code interrupted} as its message, the thread's interrupt flag restored.
 */
public final class ParallelCalls {
    private ParallelCalls() { }

    /** The jobs' results in their order; see the class comment for failures. */
    public static <T> List<T> all(Executor executor, List<? extends Callable<T>> jobs, String interrupted,
                                  Function<Throwable, RuntimeException> failed) {
        List<FutureTask<T>> fs = new ArrayList<>(jobs.size());
        for (Callable<T> j : jobs) {
            FutureTask<T> f = new FutureTask<>(j);
            fs.add(f);
            executor.execute(f);
        }
        List<T> out = new ArrayList<>(fs.size());
        for (FutureTask<T> f : fs) {
            f.run();
            try {
                out.add(f.get());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                fs.forEach(x -> x.cancel(true));
                throw new IllegalStateException(interrupted, e);
            } catch (ExecutionException e) {
                throw failed.apply(e.getCause());
            }
        }
        return out;
    }

    /** The failure as the job threw it when unchecked, else wrapped in an {@link IllegalStateException}. */
    public static RuntimeException rethrow(Throwable cause) {
        return cause instanceof RuntimeException re ? re : new IllegalStateException(cause);
    }
}
