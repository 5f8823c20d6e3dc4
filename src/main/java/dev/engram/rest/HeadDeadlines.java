package dev.engram.rest;

import dev.engram.problems.Problem;
import dev.engram.ops.EngramConfig;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.util.AttributeKey;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.json.Json;
import io.vertx.core.net.impl.ConnectionBase;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A deadline for a request's head ({@code engram.http.header-timeout}): a connection that has not sent a whole
 * request line and headers that long after it opened, or after its first byte of the next request, is answered 408
 * (when nothing else is being written on it and it is not TLS, whose records this handler, first in the pipeline,
 * does not write) and closed; Vert.x's idle timeout restarts with every byte, so a client
 * sending a header byte every few seconds would otherwise hold its connection for ever.
 *
 * <p>The deadline lives in the connection's Netty pipeline. Quarkus gives no hook on a connection being accepted, so
 * the first request served on a listening socket adds one to the socket itself ({@code Channel#parent} of that
 * request's connection, through {@link ConnectionBase#channel}); from then on every connection it accepts gets a
 * deadline from its first moment. A request reaching the router is the end of its head.
 */
@ApplicationScoped
public class HeadDeadlines {

    private static final AttributeKey<Boolean> WATCHED = AttributeKey.valueOf("engram.head-deadline.watched");
    private static final String NAME = "engramHeadDeadline";

    /** First of the routes of the lowest order, so that no refusal answers a request before its head is counted. */
    void install(@Observes @Priority(1) Router router, EngramConfig config) {
        long millis = config.http().headerTimeout().toMillis();
        if (millis <= 0) {
            return;
        }
        router.route().order(Integer.MIN_VALUE).handler(ctx -> {
            headArrived(ctx, millis);
            ctx.next();
        });
    }

    private static void headArrived(RoutingContext ctx, long millis) {
        HttpConnection connection = ctx.request().connection();
        if (!(connection instanceof ConnectionBase base)) {
            return;
        }
        Channel channel = base.channel();
        Channel server = channel.parent();
        if (server != null && server.attr(WATCHED).setIfAbsent(Boolean.TRUE) == null) {
            server.pipeline().addFirst(new Acceptor(millis));
        }
        ChannelHandler handler = channel.pipeline().get(NAME);
        if (handler instanceof Deadline deadline && ctx.request().version() == HttpVersion.HTTP_2) {
            run(channel, () -> {
                deadline.headArrived();
                channel.pipeline().remove(deadline); // HTTP/2 frames between requests are no head to time
            });
        } else if (handler instanceof Deadline deadline) {
            run(channel, deadline::headArrived);
            ctx.addEndHandler(done -> run(channel, deadline::answered));
        }
    }

    private static void run(Channel channel, Runnable task) {
        if (channel.eventLoop().inEventLoop()) {
            task.run();
        } else {
            channel.eventLoop().execute(task);
        }
    }

    /** On the listening socket: gives each connection it accepts a {@link Deadline}, before anything else. */
    @ChannelHandler.Sharable
    static final class Acceptor extends ChannelInboundHandlerAdapter {
        private final long millis;

        Acceptor(long millis) {
            this.millis = millis;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof Channel child) {
                child.pipeline().addFirst(NAME, new Deadline(millis));
            }
            ctx.fireChannelRead(msg);
        }
    }

    /**
     * One connection's deadline, first in its pipeline, on its event loop: armed when the connection opens and at
     * the first byte after an answer, disarmed when a request's head reaches the router. Arming and disarming only
     * note the time: the connection keeps one timer, which on firing looks at the deadline and waits out what is left
     * of it, so that a request on a kept-alive connection schedules and cancels nothing.
     */
    static final class Deadline extends ChannelDuplexHandler {
        private final long millis;
        private final long nanos;
        private ScheduledFuture<?> timer;
        /** When the deadline was armed ({@link System#nanoTime}), or {@link #DISARMED}. */
        private long armedAt = DISARMED;
        private boolean inRequest;
        private boolean wroteSinceArmed;

        private static final long DISARMED = Long.MIN_VALUE;

        Deadline(long millis) {
            this.millis = millis;
            this.nanos = TimeUnit.MILLISECONDS.toNanos(millis);
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) throws Exception {
            arm(ctx);
            super.channelActive(ctx);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
            if (armedAt == DISARMED && !inRequest && msg instanceof ByteBuf) {
                arm(ctx);
            }
            super.channelRead(ctx, msg);
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
            wroteSinceArmed = true;
            super.write(ctx, msg, promise);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            armedAt = DISARMED;
            if (timer != null) {
                timer.cancel(false);
                timer = null;
            }
            super.channelInactive(ctx);
        }

        void headArrived() {
            inRequest = true;
            armedAt = DISARMED;
        }

        void answered() {
            inRequest = false;
        }

        private void arm(ChannelHandlerContext ctx) {
            wroteSinceArmed = false;
            armedAt = System.nanoTime();
            if (timer == null) {
                wake(ctx, nanos);
            }
        }

        private void wake(ChannelHandlerContext ctx, long after) {
            timer = ctx.executor().schedule(() -> check(ctx), after, TimeUnit.NANOSECONDS);
        }

        /** The timer: the head is late if the deadline is armed and passed; if it is armed and not yet, wait on. */
        private void check(ChannelHandlerContext ctx) {
            timer = null;
            if (armedAt == DISARMED || !ctx.channel().isActive()) {
                return;
            }
            long left = nanos - (System.nanoTime() - armedAt);
            if (left > 0) {
                wake(ctx, left);
            } else {
                expire(ctx);
            }
        }

        private void expire(ChannelHandlerContext ctx) {
            armedAt = DISARMED;
            if (wroteSinceArmed || !ctx.channel().isActive() || ctx.pipeline().get("ssl") != null) {
                ctx.close();
                return;
            }
            Problem p = Problem.of("header-timeout", 408, "Request head too slow", "The request line and headers "
                    + "did not arrive within " + millis + " ms; send the whole head at once.")
                    .with("timeout_ms", millis);
            byte[] body = Json.encode(p.body(null)).getBytes(StandardCharsets.UTF_8);
            String head = "HTTP/1.1 408 Request Timeout\r\nContent-Type: " + Problem.MEDIA_TYPE + "\r\n"
                    + "Content-Length: " + body.length + "\r\nConnection: close\r\n\r\n";
            ctx.writeAndFlush(Unpooled.wrappedBuffer(head.getBytes(StandardCharsets.US_ASCII), body))
                    .addListener(ChannelFutureListener.CLOSE);
        }
    }
}
