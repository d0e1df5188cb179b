import { type Actor, can, type Membership } from "../../shared/authorization";
import type { Language } from "../../shared/i18n/languages";
import { isKnownQuestion } from "../../shared/questions";
import type {
  CreatedRecordingLink,
  LinkReply,
  LinkStory,
  Memory,
  Photo,
  RecordingPage,
  RecordThroughLinkBody,
} from "../../shared/schemas";
import type { AttachmentVisibility, AudioRow, AudioService } from "../audio/audio.service";
import type { Identity } from "../auth/session.service";
import type { CommentsService } from "../comments/comments.service";
import type { RepliesService } from "../comments/replies.service";
import { conflict, forbidden, HttpError, notFound, unauthorized } from "../http-errors";
import { libraryQuestion, questionIn } from "../i18n/questions";
import { languageOf, questionsInEveryLanguage } from "../i18n/words";
import { hashToken, newSecretToken } from "../ids";
import type { MemoriesService } from "../memories/memories.service";
import type { MemoryProcessingService } from "../memories/memory-processing.service";
import type { PhotosService } from "../photos/photos.service";
import type { QuestionsService } from "../reminders/questions.service";
import type { SealedBox } from "../secrets/sealed-box";
import type { FamilyQuestionsService } from "./family-questions.service";
import type { JournalsRepo } from "./journals.repo";
import type { QuestionMailService } from "./question-mail.service";
import { recordingCardPdf } from "./recording-card";

/** Where a recording link lands in the web app (CLIENT_ROUTES.recordingLink). */
export const recordingLinkUrl = (base: string, token: string) => `${base}/r/${token}`;

/** The path a story's audio is heard at through its storyteller's link. */
const storyAudioUrl = (token: string, id: string) =>
  `/api/record/${encodeURIComponent(token)}/memories/${encodeURIComponent(id)}/audio`;

/** The path a reply's audio is heard at through the link of the story's storyteller. */
const replyAudioUrl = (token: string, id: string, replyId: string) =>
  `${storyAudioUrl(token, id).replace(/\/audio$/, "")}/replies/${encodeURIComponent(replyId)}/audio`;

function toLinkStory(memory: Memory, token: string, newReplies = 0): LinkStory {
  return {
    id: memory.id,
    title: memory.title,
    status: memory.status,
    stage: memory.stage,
    error: memory.error,
    recordedAt: memory.recordedAt,
    duration: memory.duration,
    question: memory.question,
    audioUrl: storyAudioUrl(token, memory.id),
    newReplies,
    photoCount: memory.photos.length,
  };
}

/** A live link: the member it speaks for, and who asks through it. */
interface OpenLink {
  /** The rules' actor: the link's member and nothing else (no session, no share links). */
  actor: Actor & Identity;
  membership: Membership;
  userId: string | null;
  name: string;
  journalName: string;
  /** What the page speaks: the member's own language, else the journal's. */
  language: Language;
}

/** A link as organizers see it again: its address, whose it is, and the language its card speaks. */
interface CurrentLink extends CreatedRecordingLink {
  name: string;
  journalName: string;
  language: Language;
}

export interface RecordingLinksDeps {
  repo: JournalsRepo;
  processing: Pick<MemoryProcessingService, "startThroughLink">;
  memories: Pick<MemoriesService, "listToldBy" | "getVisibleRow" | "toDto">;
  questions: Pick<QuestionsService, "weekly">;
  /** The family's questions: the oldest waiting one is asked before the library's. */
  familyQuestions: Pick<FamilyQuestionsService, "next" | "isWaiting" | "waiting">;
  /** The weekly question by mail: whether it comes, and the storyteller's choice to stop it. */
  questionMail: Pick<QuestionMailService, "stateOf" | "choose">;
  audio: Pick<AudioService, "findVisible">;
  /** Keeps the token readable by the server beside its hash (a card printed again, a mail's link). */
  box: SealedBox;
  /** Who may hear an attached upload (compose.ts's rule: whoever may see its memory). */
  mayHear: AttachmentVisibility;
  /** Replies to the member's stories: which are new, and marking them heard (ADR 0063). */
  replies: Pick<RepliesService, "counts" | "markSeen">;
  comments: Pick<CommentsService, "listRows" | "findVisible">;
  /** The photo a story was started from ("Start from a photo"), added as its storyteller. */
  photos: Pick<PhotosService, "add">;
  now?: () => Date;
}

/**
 * A storyteller's personal recording link (ADR 0060, 0063, 0064): a capability an organizer makes,
 * renews, prints on a card or stops; its hash finds it, and a copy sealed with a server secret
 * lets organizers see it again and print its card without renewing it. Opened, it records in that
 * journal as that member and plays back that member's own stories, and nothing else: its actor
 * carries the member alone, and only the link's routes make one.
 */
export class RecordingLinksService {
  private readonly now: () => Date;

  constructor(private readonly deps: RecordingLinksDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** 401 logged out, 404 not a member, 403 not an organizer, 404 no such member. */
  private async managedMember(identity: Identity, journalId: string, memberId: string) {
    if (!identity.userId) throw unauthorized();
    if (!can(identity, "journal.view", { id: journalId })) throw notFound();
    if (!can(identity, "journal.manage", { id: journalId }))
      throw forbidden("journal.not_organizer");
    const member = await this.deps.repo.findMember(journalId, memberId);
    if (!member) throw notFound();
    return member;
  }

  /** POST .../recording-link: a new link (the one before stops at once), its URL shown once. */
  async make(
    identity: Identity,
    journalId: string,
    memberId: string,
    base: string,
  ): Promise<CreatedRecordingLink & { name: string; journalName: string }> {
    const member = await this.managedMember(identity, journalId, memberId);
    if (member.role === "relative") throw conflict("recording_link.not_a_storyteller");
    const journal = await this.deps.repo.findById(journalId);
    if (!journal) throw notFound();
    const token = newSecretToken();
    await this.deps.repo.setRecordingLink(journalId, memberId, {
      hash: hashToken(token),
      sealed: await this.deps.box.seal(token),
    });
    return { url: recordingLinkUrl(base, token), name: member.name, journalName: journal.name };
  }

  /**
   * GET .../recording-link: the member's current link, read back from its sealed copy. 404
   * `recording_link.none` without one; 409 `recording_link.make_new` for a link made before links
   * were sealed (only its hash is known).
   */
  async current(
    identity: Identity,
    journalId: string,
    memberId: string,
    base: string,
  ): Promise<CurrentLink> {
    const member = await this.managedMember(identity, journalId, memberId);
    if (member.role === "relative" || !member.recording_token_hash) {
      throw notFound("recording_link.none");
    }
    if (!member.recording_token_sealed) throw conflict("recording_link.make_new");
    const journal = await this.deps.repo.findById(journalId);
    if (!journal) throw notFound();
    const token = await this.deps.box.unseal(member.recording_token_sealed);
    return {
      url: recordingLinkUrl(base, token),
      name: member.name,
      journalName: journal.name,
      language: languageOf(member.language ?? journal.language),
    };
  }

  /** DELETE .../recording-link: the link stops at once (nothing to stop is fine). */
  async stop(identity: Identity, journalId: string, memberId: string): Promise<void> {
    await this.managedMember(identity, journalId, memberId);
    await this.deps.repo.setRecordingLink(journalId, memberId, null);
  }

  /**
   * GET .../card.pdf: the fridge card of the member's current link (never a new one), in the
   * member's language, else the journal's.
   */
  async card(
    identity: Identity,
    journalId: string,
    memberId: string,
    base: string,
  ): Promise<{ pdf: Buffer; name: string; language: Language }> {
    const link = await this.current(identity, journalId, memberId, base);
    const pdf = await recordingCardPdf({
      name: link.name,
      journal: link.journalName,
      url: link.url,
      language: link.language,
    });
    return { pdf, name: link.name, language: link.language };
  }

  /** The live link behind a token, read afresh on every request; 404 for a dead one. */
  private async open(token: string): Promise<OpenLink> {
    const row = await this.deps.repo.findByRecordingLink(hashToken(token));
    if (!row) throw notFound("recording_link.invalid");
    const membership: Membership = { journalId: row.journal_id, memberId: row.id, role: row.role };
    const actor = { userId: null, visitorHash: null, recordingFor: membership };
    // A member who no longer tells stories (made a relative) has a link that opens nothing.
    if (!can(actor, "link.record", { id: row.journal_id }))
      throw notFound("recording_link.invalid");
    return {
      actor,
      membership,
      userId: row.user_id,
      name: row.name,
      journalName: row.journal_name,
      language: languageOf(row.language ?? row.journal_language),
    };
  }

  /** The language a live link's page speaks (its HTML carries it); null for a dead link. */
  async pageLanguage(token: string): Promise<Language | null> {
    try {
      return (await this.open(token)).language;
    } catch (error) {
      if (error instanceof HttpError && error.statusCode === 404) return null;
      throw error;
    }
  }

  /**
   * PUT /api/record/{token}/language: the storyteller chooses the language their page speaks (and
   * their card prints in); only through their own link.
   */
  async chooseLanguage(token: string, language: Language): Promise<void> {
    const link = await this.open(token);
    const { journalId, memberId } = link.membership;
    if (!can(link.actor, "member.language", { journalId, memberId })) throw notFound();
    await this.deps.repo.setMemberLanguage(memberId, language);
  }

  /**
   * GET /api/record/{token}: the journal's name, the member's name, the question, their stories.
   * The question is `asked` when it is one the product or the family asks (the weekly mail's
   * button opens the page with it), else the oldest family question waiting, else the week's.
   */
  async page(token: string, page: number, asked?: string): Promise<RecordingPage> {
    const link = await this.open(token);
    const { journalId, memberId } = link.membership;
    const [stories, question, questionMail, replies] = await Promise.all([
      this.deps.memories.listToldBy(journalId, memberId, page),
      this.questionFor(memberId, link.language, asked),
      this.deps.questionMail.stateOf(journalId, memberId),
      this.deps.replies.counts(link.actor, memberId),
    ]);
    return {
      journalName: link.journalName,
      name: link.name,
      language: link.language,
      ...question,
      questionMail,
      stories: {
        ...stories,
        items: stories.items.map((memory) => toLinkStory(memory, token, replies.get(memory.id))),
      },
    };
  }

  /** The question the page asks, a built-in one in the page's language (by its place in the list). */
  private async questionFor(
    memberId: string,
    language: Language,
    asked: string | undefined,
  ): Promise<{ question: string; askedBy: string | null }> {
    if (asked) {
      const family = await this.deps.familyQuestions.waiting(memberId, asked);
      if (family) return { question: family.text, askedBy: family.askedBy };
      if (isKnownQuestion(asked, [], questionsInEveryLanguage())) {
        return { question: questionIn(language, libraryQuestion(asked)), askedBy: null };
      }
    }
    const next = await this.deps.familyQuestions.next(memberId);
    if (next) return { question: next.text, askedBy: next.askedBy };
    return {
      question: questionIn(language, this.deps.questions.weekly(memberId, this.now())),
      askedBy: null,
    };
  }

  /**
   * POST /api/record/{token}/unsubscribe (RFC 8058 one-click, and the page's button): the
   * storyteller stops, or asks again for, the weekly question mail. Works while the link does.
   */
  async chooseMail(token: string, stopped: boolean): Promise<void> {
    const link = await this.open(token);
    await this.deps.questionMail.choose(link.membership.memberId, stopped);
  }

  /**
   * POST /api/record/{token}/memories: a memory of a recording this browser uploaded, told by the
   * link's member in its journal. A question is kept only when it is one the product or the family asks.
   */
  async record(
    identity: Identity,
    token: string,
    body: RecordThroughLinkBody,
  ): Promise<{ story: LinkStory; created: boolean }> {
    const link = await this.open(token);
    const text = body.question;
    const asked =
      text &&
      (isKnownQuestion(text, [], questionsInEveryLanguage()) ||
        (await this.deps.familyQuestions.isWaiting(link.membership.memberId, text)));
    const question = asked ? text : undefined;
    const { memory, created } = await this.deps.processing.startThroughLink(
      // The upload is checked against this browser; the memory is the link's member's.
      { ...identity, recordingFor: link.membership },
      { ...link.membership, userId: link.userId },
      { audioUrl: body.audioUrl, recordedAt: body.recordedAt, question },
    );
    return { story: toLinkStory(memory, token), created };
  }

  /** GET /api/record/{token}/memories/{id}: one of the member's own stories (its progress). */
  async story(token: string, id: string): Promise<LinkStory> {
    const link = await this.open(token);
    const row = await this.deps.memories.getVisibleRow(id, link.actor);
    return toLinkStory(await this.deps.memories.toDto(row), token);
  }

  /** GET /api/record/{token}/memories/{id}/replies: a story's replies, newest first, to play. */
  async replies(token: string, id: string): Promise<LinkReply[]> {
    const link = await this.open(token);
    const rows = await this.deps.comments.listRows(id, link.actor);
    return rows.map((row) => ({
      id: row.id,
      commenterName: row.commenter_name,
      transcript: row.transcript,
      createdAt: row.created_at,
      audioUrl: replyAudioUrl(token, id, row.id),
    }));
  }

  /** POST .../replies/seen: the storyteller opened a story's replies; they are no longer new. */
  async repliesSeen(token: string, id: string): Promise<void> {
    const link = await this.open(token);
    await this.deps.replies.markSeen(link.actor, id);
  }

  /** The audio of a reply to one of the member's own stories, by the usual rule for the link's actor. */
  async replyAudio(token: string, id: string, replyId: string): Promise<AudioRow> {
    const link = await this.open(token);
    const reply = await this.deps.comments.findVisible(id, replyId, link.actor);
    const audio = reply.audio_id
      ? await this.deps.audio.findVisible(reply.audio_id, link.actor, this.deps.mayHear)
      : null;
    if (!audio) throw notFound();
    return audio;
  }

  /**
   * POST .../memories/{id}/photos: the photo a story through the link was started from, added to
   * that story as its storyteller (`memory.addPhoto` decides: the link's own stories only).
   */
  async addPhoto(token: string, id: string, bytes: Buffer): Promise<Photo> {
    const link = await this.open(token);
    return this.deps.photos.add(id, link.actor, bytes);
  }

  /** The audio of one of the member's own stories, decided by the usual rule for the link's actor. */
  async storyAudio(token: string, id: string): Promise<AudioRow> {
    const link = await this.open(token);
    const row = await this.deps.memories.getVisibleRow(id, link.actor);
    const audio = row.audio_id
      ? await this.deps.audio.findVisible(row.audio_id, link.actor, this.deps.mayHear)
      : null;
    if (!audio) throw notFound();
    return audio;
  }
}
