package dev.engram.rest;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/** HTTP/1.1 sent byte for byte over a socket, for the tests of what a client library would never send. */
final class RawHttp {

    private RawHttp() {
    }

    /** Sends {@code head} as it is and reads until the server closes; fails if it stays open a minute. */
    static String untilClosed(URI base, String head) throws IOException {
        try (Socket s = new Socket(base.getHost(), base.getPort())) {
            send(s, head);
            return untilClosed(s);
        }
    }

    /** Reads what {@code s} answers until the server closes; fails if it keeps the connection past a minute. */
    static String untilClosed(Socket s) throws IOException {
        return read(s, 60_000, true);
    }

    /** Sends {@code head} as it is and reads the answer until the server closes or pauses five seconds. */
    static String untilPause(URI base, String head) throws IOException {
        try (Socket s = new Socket(base.getHost(), base.getPort())) {
            send(s, head);
            return read(s, 5000, false);
        }
    }

    static void send(Socket s, String head) throws IOException {
        s.getOutputStream().write(head.getBytes(StandardCharsets.ISO_8859_1));
        s.getOutputStream().flush();
    }

    private static String read(Socket s, int timeoutMs, boolean mustClose) throws IOException {
        s.setSoTimeout(timeoutMs);
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        InputStream in = s.getInputStream();
        byte[] buffer = new byte[4096];
        try {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                got.write(buffer, 0, n);
            }
        } catch (SocketTimeoutException e) {
            if (mustClose) {
                fail("the connection is still open: " + got.toString(StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            if (!mustClose) {
                throw e;
            }
            // reset by the server: closed
        }
        return got.toString(StandardCharsets.UTF_8);
    }
}
