package dev.engram.nativeimage;

import dev.engram.memories.rest.BankReader;
import dev.engram.memories.rest.BankResource;
import dev.engram.rest.Bodies;
import dev.engram.entries.rest.ChangeJson;
import dev.engram.stores.files.rest.ImportJson;
import dev.engram.contexts.rest.CompactResource;
import dev.engram.contexts.app.ContextCompactions;
import dev.engram.contexts.app.ContextJson;
import dev.engram.contexts.app.ToolResultReads;
import dev.engram.entries.rest.EntryJson;
import dev.engram.entries.rest.ManifestJson;
import dev.engram.entries.rest.ManifestResource;
import dev.engram.documents.rest.MemoryToolResource;
import dev.engram.documents.stores.rest.StoreApiJson;
import dev.engram.memories.rest.MemoryJson;
import dev.engram.memories.rest.MemoryResource;
import dev.engram.memories.rest.MentalModelResource;
import dev.engram.problems.Problem;
import dev.engram.memories.rest.RecallResource;
import dev.engram.entries.rest.RenderResource;
import dev.engram.entries.rest.Replies;
import dev.engram.tools.rest.ToolsResource;
import dev.engram.tools.rest.WriteRecordJson;
import dev.engram.access.rest.GrantJson;
import dev.engram.access.rest.KeysResource;
import dev.engram.contexts.messages.ContentBlock;
import dev.engram.contexts.ContextConfig;
import dev.engram.contexts.FillCheck;
import dev.engram.contexts.messages.Message;
import dev.engram.contexts.messages.ReasoningItem;
import dev.engram.contexts.Step;
import dev.engram.contexts.StrategySettings;
import dev.engram.contexts.SummarizerChoice;
import dev.engram.contexts.messages.ToolCall;
import dev.engram.contexts.messages.VulnerableOutput;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The types Jackson reads and writes by reflection, registered for the native image, which reflects only on what is
 * registered: the REST API's bodies and replies, and the core's values that they carry or that the store keeps as
 * JSON (the core itself stays free of Quarkus). {@code NativeRegistrationsTest} finds these types in the code and
 * fails when one is missing; a list only the JVM build would never miss.
 */
@RegisterForReflection(targets = {
    // the REST API
    Bodies.Erase.class, Bodies.PatchEntry.class, Bodies.PutEntry.class, Bodies.PutStore.class,
    BankResource.ReflectBody.class, BankResource.ReflectedJson.class, BankResource.SettingsBody.class,
    BankResource.SettingsJson.class, BankResource.SlotBody.class, BankResource.SlotJson.class,
    BankReader.class,
    ChangeJson.class, ChangeJson.ErasureJson.class,
    ImportJson.class, ImportJson.ConflictJson.class,
    CompactResource.CompactBody.class, CompactResource.StrategyJson.class,
    ContextCompactions.Compacted.class,
    ContextJson.Action.class, ContextJson.Appended.class, ContextJson.Block.class, ContextJson.Cached.class,
    ContextJson.CompactionRefused.class, ContextJson.Config.class, ContextJson.ConfigView.class,
    ContextJson.StrategyView.class,
    ContextJson.Memory.class, ContextJson.MessageJson.class, ContextJson.Messages.class, ContextJson.Model.class,
    ContextJson.Mutation.class, ContextJson.Pruning.class, ContextJson.Reasoning.class, ContextJson.StepBody.class,
    ContextJson.Steps.class, ContextJson.Strategy.class, ContextJson.Task.class, ContextJson.Text.class,
    ContextJson.Thresholds.class, ContextJson.TokenCount.class, ContextJson.ToolResult.class, ContextJson.View.class,
    ToolResultReads.Read.class,
    EntryJson.class,
    ManifestJson.class, ManifestJson.Item.class,
    ManifestResource.ApplyBody.class, ManifestResource.FoldBody.class, ManifestResource.FoldReply.class,
    ManifestResource.ManifestReply.class, ManifestResource.RecordReply.class, ManifestResource.RecordSinceBody.class,
    MemoryToolResource.ToolResultJson.class,
    StoreApiJson.CreateStoreMemory.class, StoreApiJson.CreateMemoryStore.class, StoreApiJson.MemoryStoreDeletion.class,
    StoreApiJson.StoreMemoryJson.class, StoreApiJson.MemoryStorePage.class, StoreApiJson.ContentPrecondition.class,
    StoreApiJson.MemoryPrefixJson.class, StoreApiJson.MemoryStoreJson.class, StoreApiJson.UpdateStoreMemory.class,
    StoreApiJson.UpdateMemoryStore.class, StoreApiJson.MemoryVersionJson.class,
    MemoryJson.class, MemoryJson.BankJson.class, MemoryJson.Batch.class, MemoryJson.RevisionJson.class,
    MemoryJson.Save.class, MemoryJson.SavedJson.class, MemoryJson.ScoredJson.class, MemoryJson.Search.class,
    dev.engram.memories.rank.Explain.class,
    RecallResource.LagJson.class, RecallResource.StatusJson.class,
    MemoryResource.Action.class, MemoryResource.MemoriesJson.class, MemoryResource.ResultsJson.class,
    MentalModelResource.ModelBody.class, MentalModelResource.ModelJson.class, MentalModelResource.ModelsJson.class,
    Problem.class,
    RenderResource.ManifestsJson.class, RenderResource.PartJson.class, RenderResource.RenderJson.class,
    RenderResource.SessionRecordJson.class, RenderResource.SessionRenderJson.class,
    Replies.Entries.class, Replies.EntryPage.class, Replies.JournalPage.class, Replies.LostUpdateJson.class,
    Replies.LostUpdates.class, Replies.Reconnect.class, Replies.StoreJson.class,
    ToolsResource.CallBody.class, ToolsResource.CallJson.class, ToolsResource.ToolsJson.class,
    WriteRecordJson.class,
    GrantJson.class,
    KeysResource.IssueBody.class, KeysResource.IssuedJson.class, KeysResource.KeyJson.class,
    KeysResource.KeysJson.class,
    // the core's values in replies (fill, vulnerable outputs) and in the contexts' stored JSON
    ContentBlock.class, ContextConfig.class, ContextConfig.HistoryMutation.class, ContextConfig.Memory.class,
    ContextConfig.Model.class, ContextConfig.Pruning.class, ContextConfig.Thresholds.class, FillCheck.class,
    Message.class, ReasoningItem.class, Step.class, StrategySettings.class, SummarizerChoice.class, ToolCall.class,
    VulnerableOutput.class
})
final class JsonTypes {

    private JsonTypes() {
    }
}
