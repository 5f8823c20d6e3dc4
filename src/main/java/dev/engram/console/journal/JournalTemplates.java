package dev.engram.console.journal;

import dev.engram.console.Chrome;
import io.quarkus.qute.CheckedTemplate;
import io.quarkus.qute.TemplateInstance;
import java.util.List;

/** The journal's templates (templates/console/journal): a page of it, and one row, which the live stream sends too. */
@CheckedTemplate(basePath = "console/journal", requireTypeSafeExpressions = false)
final class JournalTemplates {

    private JournalTemplates() {
    }

    static native TemplateInstance timeline(Chrome chrome, String store, TimelineView view, List<RecordRow> rows);

    static native TemplateInstance row(String store, RecordRow r);
}
