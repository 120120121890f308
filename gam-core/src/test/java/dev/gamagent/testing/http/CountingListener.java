package dev.gamagent.testing.http;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A listener on a loopback address that accepts connections, closes them at once and counts them: what a test
 * points a redirect at to show that nothing connected there.
 */
public final class CountingListener implements AutoCloseable {
    private final ServerSocket socket = new ServerSocket();
    private final AtomicInteger accepted = new AtomicInteger();

    public CountingListener(String address) throws IOException {
        socket.bind(new InetSocketAddress(InetAddress.getByName(address), 0));
        Thread t = new Thread(() -> {
            while (!socket.isClosed()) {
                try (Socket s = socket.accept()) {
                    accepted.incrementAndGet();
                } catch (IOException closed) {
                    return;
                }
            }
        }, "counting-listener");
        t.setDaemon(true);
        t.start();
    }

    public int port() { return socket.getLocalPort(); }

    /** The connections accepted so far. */
    public AtomicInteger accepted() { return accepted; }

    @Override public void close() throws IOException { socket.close(); }
}
