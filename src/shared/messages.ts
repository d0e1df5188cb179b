import { MIN_RECORDING_BYTES, SHARE_LINKS_PER_USER } from "./constants";
import { formatMessage } from "./i18n/format";
import { translatable } from "./i18n/page-words";
import {
  PHOTO_FIELD,
  PHOTO_MAX_DECODED_BYTES,
  PHOTO_MAX_PIXELS,
  PHOTO_MESSAGES,
  PHOTOS_PER_MEMORY,
} from "./photos";

/** Every user-facing string of the spec, character for character, defined once. */
export const MESSAGES = translatable("MESSAGES", {
  notFoundPage: "404 Page Not Found - The page you're looking for doesn't exist.",
  homeHeader: "Preserve your precious moments, one voice at a time",
  startRecording: "Start Recording",
  stopRecording: "Stop Recording",
  processing: "Processing...",
  cancelRecording: "Cancel Recording",
  backupMemories: "Backup Memories",
  searchPlaceholder: "Search your memories...",
  recentMemories: "Recent Memories",
  noMemoriesFound: "No memories found.",
  startByRecording: "Start by recording your first memory!",
  editMemory: "Edit Memory",
  /** Before the question a memory answers (its page, the Edit dialog). */
  answering: "Answering:",
  removeQuestion: "Remove question",
  keepQuestion: "Keep question",
  questionWillBeRemoved: "Once saved, this memory answers no question.",
  cancel: "Cancel",
  saveChanges: "Save Changes",
  loading: "Loading...",
  memoryScores: "Memory Scores",
  noComments: "No comments",
  oneComment: "1 comment",
  invalidResetLink: "Invalid Reset Link",
  returnToHome: "Return to Home",
  newPassword: "New Password",
  confirmPassword: "Confirm Password",
  profileSubtitle: "Explore and share in these cherished moments",
  profileEmpty: "This user hasn't shared any memories yet.",
  profileNotFound: "Profile not found",
  watchTitle: "Apple Watch View",
  backToFullApp: "Back to Full App",
  logout: "Logout",
  watchView: "Watch View",
  logIn: "Log in",
  signUp: "Sign up",
  signUpDescription: "Create an account to keep your memories.",
  signUpPublicChoice: "Make my profile public",
  signUpPublicHint:
    "Unchecked, your profile starts private: only you, and relatives you send a private link, can listen. You can change this later in your menu.",
  logOut: "Log out",
  forgotPassword: "Forgot your password?",
  viewProfile: "View Profile",
  shareProfile: "Share Profile",
  makeProfilePrivate: "Make Profile Private",
  makeProfilePublic: "Make Profile Public",
  userMenu: "User menu",
  copyFailed: "Could not copy the link",
  passwordResetEmailSentDescription:
    "If an account uses that email, a link to reset its password is on its way.",

  // Validation (spec section 5)
  recordingUnsupported:
    "Audio recording is not supported in your browser. Please use a modern browser like Chrome, Firefox, or Safari.",
  noSupportedFormat:
    "Your browser does not support any of the required audio formats. Please try a different browser.",
  noAudioData:
    "No audio data was recorded. Please try speaking louder or check your microphone settings.",
  recordingTooShort:
    "The recording was too short or no audio was detected. Please try again and speak clearly into your microphone.",
  noSpeechDetected:
    "No speech was detected in the recording. Please try again and speak clearly into your microphone.",
  microphoneDenied: "Microphone access was denied. Please allow microphone access and try again.",
  nameRequired: "Name required",
  nameRequiredDescription: "Please enter your name before recording.",
  maxTagsReached: "Maximum tags reached",
  maxTagsReachedDescription: "You can only have up to 5 tags per memory.",
  duplicateTag: "Duplicate tag",
  duplicateTagDescription: "This tag already exists.",
  invalidTagFormat: "Invalid tag format",
  invalidConfirmation: "Invalid confirmation",
  invalidConfirmationDescription: 'Please type "delete" to confirm.',
  passwordsDoNotMatch: "Passwords do not match",

  // API failures (spec section 8)
  failedFetchUserProfile: "Failed to fetch user profile",
  failedFetchPublicMemories: "Failed to fetch public memories",
  failedSearchPublicMemories: "Failed to search public memories",
  failedUpdateVisibility: "Failed to update profile visibility",
  failedCreateMemory: "Failed to create memory",
  failedCreateComment: "Failed to create comment",
  failedFetchComments: "Failed to fetch comments",
  failedUploadAudio: "Failed to upload audio",
  failedFetchMemories: "Failed to fetch memories",
  failedFetchMemory: "Failed to fetch memory",
  failedSearchMemories: "Failed to search memories",
  failedUpdateMemory: "Failed to update memory",
  failedDeleteMemory: "Failed to delete memory",

  // AI errors
  transcriptionFailedPrefix: "Transcription failed: ",
  scoreFailedPrefix: "Failed to score memory: ",
  summarizeFailedPrefix: "Failed to summarize memory: ",
  tagsFailedPrefix: "Failed to generate tags: ",
  /** A provider's own failures: logged, never shown (the memory stores the stage's code). */
  noResponseContent: "No response content received from GPT",
  noSummaryGenerated: "No summary generated by GPT",
  /** After a stage prefix, when the recording's file is gone. */
  recordingMissing: "the recording is missing",

  // Server processing progress (spec 4: a notice at each step), by pipeline stage
  transcribing: "Transcribing...",
  /** Under a spoken comment whose transcription failed, with why. */
  transcriptUnavailable: "Transcript unavailable: {reason}",
  summarizing: "Summarizing...",
  scoring: "Scoring...",
  tagging: "Generating tags...",
  saving: "Saving...",

  // Toasts
  failedSaveMemory: "Failed to save memory",
  processingFailed: "Processing failed",
  recordingFailed: "Recording failed",
  failedSaveAccount: "Failed to save account",
  loginFailed: "Login failed",
  registrationFailed: "Registration failed",
  passwordResetFailed: "Password reset failed",
  failedUpdateTags: "Failed to update tags",
  backupFailed: "Backup failed",
  logoutFailed: "Logout failed",
  pleaseTryAgain: "Please try again",
  microphoneError: "Microphone Error",
  microphoneErrorDescription: "Could not access your microphone. Please check permissions.",
  accountCreated: "Account created",
  accountCreatedClaimFailed:
    "Your account was created, but we couldn't link your memory to it. Please record it again.",

  // Recorder progress (spec 4: a notice at each processing step)
  convertingToMp3: "Converting to MP3...",
  uploading: "Uploading...",
  recordingKeptOnDevice:
    "Your recording is safe on this device and will be uploaded automatically when the connection is back.",
  recordingKeptWillResend:
    "Your recording is safe on this device and will be sent again automatically.",
  recordingKeptRefused:
    "Your recording is kept on this device: retry or discard it on the home page.",
  retry: "Retry",
  discard: "Discard",

  // Recordings made without an account, on the home page
  unclaimedHeading: "Not saved to an account yet",
  unclaimedIntro:
    "Only this browser can see these recordings. Save them to an account to keep them.",
  unclaimedIntroLoggedIn: "You recorded these here before logging in. Add them to your account.",
  saveToAccount: "Save to an account",
  addToMyAccount: "Add to my account",
  notNow: "Not now",
  attachOfferTitle: "Add your recordings to your account?",
  claimFailed: "Could not add the recording to your account",
  untitledMemory: "Untitled memory",
  deleteMemory: "Delete",

  // Inline
  watchLoginFailed: "Login failed. Please try again.",
  recorderError: "An error occurred while recording. Please try again.",

  // Success toasts
  memorySaved: "Memory saved!",
  memoryUpdated: "Memory updated!",
  accountSaved: "Account saved!",
  welcomeBack: "Welcome back!",
  welcome: "Welcome!",
  goodbye: "Goodbye!",
  linkCopied: "Link copied!",
  tagAdded: "Tag added",
  tagRemoved: "Tag removed",
  memoryDeleted: "Memory deleted",
  commentAdded: "Comment added!",
  commentRemoved: "Comment removed",
  failedRemoveComment: "Failed to remove comment",
  yourName: "Your name",
  /** The spoken-comment recorder's start button: it says what the recording becomes. */
  answerWithVoice: "Answer with your voice",
  backupSuccessful: "Backup successful",
  passwordResetSuccessful: "Password reset successful",
  passwordResetEmailSent: "Password reset email sent",
  profileNowPublic: "Profile is now public",
  profileNowPrivate: "Profile is now private",

  // The account page (PRODUCT.md: display name, email, password, deletion)
  account: "Account",
  accountTitle: "Your account",
  accountLoggedOut: "Log in to manage your account.",
  displayName: "Display name",
  displayNameSaved: "Display name saved",
  emailSaved: "Email saved",
  failedUpdateAccount: "Failed to update account",
  currentPassword: "Current password",
  changePassword: "Change password",
  passwordChanged: "Password changed",
  passwordChangedDescription: "You are still signed in here; every other device was signed out.",
  failedChangePassword: "Failed to change password",
  currentPasswordIncorrect: "Current password is incorrect",
  deleteAccount: "Delete account",
  deleteAccountTitle: "Delete your account?",
  downloadBackupFirst: "Download a backup first",
  accountDeleted: "Account deleted",
  accountDeletedDescription: "Your memories, comments and recordings are gone.",
  failedDeleteAccount: "Failed to delete account",

  // Server errors
  notLoggedIn: "Not logged in",
  notFound: "Not found",
  internalError: "Something went wrong on our side. Please try again.",
  /** The installed app with no connection: what it shows is what this device saw last. */
  youAreOffline:
    "You are offline. You see your memories as they were last time; they update when the connection returns.",
  /** The browser could not reach the server at all (offline, or the server is down). */
  connectionLost: "Could not reach the server. Please check your connection and try again.",
  /** A request the server could not read (malformed JSON, a wrong content type). */
  badRequest: "That request could not be read. Please reload the page and try again.",
  unexpectedResponse: "The server's answer was not understood. Please reload the page.",
  tooManyRequests: "Too many requests. Please wait a moment and try again.",
  invalidCredentials: "Invalid username or password",
  usernameTaken: "Username is already taken",
  emailTaken: "Another account already uses this email",
  invalidResetToken: "This reset link is invalid or has expired",
  databaseUnreachable: "Database unreachable",
  storageUnreachable: "Storage unreachable",
  storageFull: "The server has no room for new recordings right now. Please try again later.",
  databaseAndStorageUnreachable: "Database and storage unreachable",
  dataDiskNearlyFull: "The data disk is nearly full: new recordings may fail",
  tooLarge: "The file is too large",
  restoreFromBackup: "Restore from backup",
  restoreChooseFile: "Backup zip",
  restoreRunning: "Uploading and checking your backup... This can take a few minutes.",
  backupRestored: "Backup restored",
  restoreFailed: "Restore failed",
  restoredUnfinished: "Processing had not finished when this was backed up. Please try again.",
  editWhileProcessing: "This memory is still being processed. You can edit it once it is ready.",
  alreadyProcessing: "This memory is already being processed. Please wait until it is ready.",

  // Regenerate: summary, title, scores and tags made again from the transcript
  regenerate: "Regenerate",
  regenerateHint: "Make the title, summary, scores and tags again from the transcript",
  saveAndRegenerate: "Save and regenerate",
  regenerateFailed: "Could not regenerate the memory",
  regenerateConfirmTitle: "Replace your title and summary?",
  regenerateConfirmDescription:
    "A new title, summary and tags are written from the transcript in place of yours. You can undo it straight afterwards.",
  regenerateConfirm: "Replace them",
  undo: "Undo",
  close: "Close",
  regenerateUndone: "Your title, summary and tags are back",
  // The owner's controls on the memory page
  editMemoryLabel: "Edit memory",
  deleteMemoryLabel: "Delete memory",

  // Transcribing again once a better speech engine is there (ADR 0041)
  betterTranscriptAvailable: "A better transcription is available",
  transcribeAgain: "Transcribe again",
  transcribeAgainHint:
    "Transcribe the recording again with the better engine; the title, summary, scores and tags are made again from it",
  transcribeAgainFailed: "Could not transcribe the memory again",
  // While no speech model is in place, the offline fallback makes rough transcripts (ADR 0041)
  roughTranscriptNote:
    "This transcript is a rough first try, so the title may read oddly. A better transcript will come once the speech model is in place.",
  speechModelMissingTitle: "Speech model not installed",
  speechModelMissing:
    "New recordings get a rough transcript for now. Once the speech model is in place, you can have your memories transcribed again from here.",
  transcribeBesideHint:
    "Transcribe the recording again with the better engine; your edited transcript stays, and the new one is shown beside it for you to choose",
  // A new transcription beside the owner's edit (ADR 0045)
  proposalHeading: "A new transcription was made beside yours. Which one do you keep?",
  yourTranscript: "Your transcript",
  newTranscription: "New transcription",
  keepMine: "Keep mine",
  useNewTranscription: "Use the new one",
  useNewTranscriptionHint:
    "Your transcript is replaced by the new one, with its times for captions; the title and summary stay (Regenerate makes them again)",
  proposalFailed: "Could not change the transcript. Please try again.",
  noProposedTranscript: "There is no new transcription to choose for this memory",
  noBetterTranscript: "There is no better transcription for this memory",
  transcribeAllAgain: "Transcribe them again",
  playFromHere: "Play from here",
  followTheVoice: "Follow the voice",
  captions: "Captions",

  // While recording: the time, Pause and Resume, the question, and a calm note on a long one
  pauseRecording: "Pause Recording",
  resumeRecording: "Resume Recording",
  recordingTime: "Time recorded",
  recordingPaused: "Paused",
  liveAudioLevel: "Live audio level",
  recordingAnswering: "Answering:",
  takeYourTime:
    "Take your time. There is no rush: pause whenever you like, and stop when you are done.",

  // Player, comments, profile and page titles
  recording: "Recording",
  play: "Play",
  pause: "Pause",
  playbackPosition: "Playback position",
  searchTheseMemories: "Search these memories...",
  profilePrivate: "Private profile",
  profilePrivateHint: "Only you can see these memories.",
  profilePublic: "Public profile",
  profilePublicHint: "Anyone with the link can see these memories.",
  removeCommentTitle: "Remove this comment?",
  remove: "Remove",
  pageNotFoundTitle: "Page Not Found",
  resetPasswordTitle: "Reset password",

  // Words with values (ICU messages, see i18n/format.ts)
  commentCount: "{count, plural, one {# comment} other {# comments}}",
  profileTitle: "{name}''s Memories",
  signedInAs: "Signed in as {name}",
  editMemoryNamed: "Edit {title}",
  memoryWord: "memory",
  pendingRecordings:
    "{count, plural, one {# recording is waiting to be uploaded.} other {# recordings are waiting to be uploaded.}}",
  restoreSummary:
    "{imported, plural, one {# memory} other {# memories}} restored{skipped, plural, =0 {} one {, # memory already here} other {, # memories already here}}{failed, plural, =0 {} one {, # memory could not be restored} other {, # memories could not be restored}}.",
  tagsUsed: "{count}/{max} tags used",
  wordsThenTryAgain: "{words}. Please try again.",
  unclaimedDeadline: "Save it to an account by {when}.",
  attachOffer:
    "{count, plural, one {This browser has # recording made without an account. Add it to your account?} other {This browser has # recordings made without an account. Add them to your account?}}",
  recordingsAdded:
    "{count, plural, one {# recording added to your account} other {# recordings added to your account}}",
  yearNavigator: "Years",
  yearLabel: "{year}, {count, plural, one {# memory} other {# memories}}",
  playbackPositionText: "{elapsed} of {total}",
  commentBy: "Comment by {name}",
  removeCommentBy: "Remove comment by {name}",
  removeCommentDescription: "The spoken comment by {name} will be removed for good.",
  documentTitle: "{page} - {app}",
  betterTranscripts:
    "{count, plural, one {# memory was} other {# memories were}} transcribed by the rough offline engine. A better transcription is available.",
  transcribingAgain:
    "{count, plural, one {# memory is} other {# memories are}} being transcribed again",

  // Languages
  language: "Language",
  languageFailed: "The language could not be changed",
  haveAnIdea: "Have an idea?",
  featureRequest: "Send us a feature request:",
  comingSoon: "Coming soon",

  // The app itself: its name, and the installed app's (web app manifest) name and purpose
  appTitle: "Voice Memory Journal",
  appShortName: "Memories",
  appDescription: "Record spoken memories for your children and keep them safe.",

  // Words moved from the screens
  username: "Username",
  usernameLabel: "Username:",
  password: "Password",
  email: "Email",
  emailOptional: "Email (optional)",
  logInDescription: "Welcome back: log in to your journal.",
  resetYourPassword: "Reset your password",
  resetYourPasswordDescription: "We will email you a link to choose a new password.",
  sendResetLink: "Send reset link",
  resetPasswordButton: "Reset Password",
  saveYourMemory: "Save your memory",
  saveYourMemoryDescription: "Create an account to keep this memory. Your profile starts private.",
  saveAccount: "Save Account",
  displayNameHint:
    "Shown in the top bar and on your profile instead of your username. Leave it empty to use your username.",
  saveDisplayName: "Save display name",
  emailHint:
    "Used only to send you a link if you forget your password. Without one, a forgotten password cannot be reset.",
  saveEmail: "Save email",
  passwordChangeHint:
    "Every other device signed in to your account is signed out; this one stays signed in.",
  restoreHint:
    "Bring back the memories of a backup zip (from Backup Memories, on this server or another). Memories already in your account are skipped, so restoring twice is safe.",
  deleteAccountHint:
    "Deleting your account deletes everything in it for good: every memory, the comments on them and all the recordings. Download a backup first to keep a copy (a zip with every memory, its recording and its comments).",
  deleteAccountDescription:
    "Your account and everything in it are deleted for good: every memory, the comments on them and all the recordings.",
  deleteMemoryTitle: "Delete this memory?",
  deleteMemoryDescription: "This removes the memory, its audio and its comments for good.",
  delete: "Delete",
  /** The list's delete button, named after the memory. */
  deleteMemoryNamed: "Delete {title}",
  /** After a typed deletion's description: the word to type. */
  typeToConfirm: 'Type "{word}" to confirm.',
  confirmation: "Confirmation",
  /** The top bar's navigation landmark. */
  mainNavigation: "Main",
  loadingSession: "Loading session",
  /** A spinner's name when it says nothing more. */
  loadingShort: "Loading",
  /** Each toast, and the toasts' region, for screen readers. */
  notification: "Notification",
  notificationsRegion: "Notifications ({hotkey})",
  back: "Back",
  transcript: "Transcript",
  summary: "Summary",
  title: "Title",
  dateRecorded: "Date Recorded",
  tags: "Tags",
  editTags: "Edit tags",
  done: "Done",
  noTagsYet: "No tags yet.",
  addATag: "Add a tag",
  newTag: "New tag",
  addTag: "Add tag",
  removeTagNamed: "Remove tag {tag}",
  pages: "Pages",
  pageNumber: "Page {page}",
  memories: "Memories",
  sharedMemories: "Shared memories",
  recordingsWaiting: "Recordings waiting to be uploaded",
  scoreMeaningfulness: "Meaningfulness",
  scoreCuteness: "Cuteness",
  scoreExcitement: "Excitement",
  scoreInterest: "Interest",
  scoreUniqueness: "Uniqueness",
  scoreOverall: "Overall",
  /** A memory in a list while the server works on it, and which stage it is at. */
  processingBadge: "Processing…",
  processingStage: "Processing… {stage}",
  // Form checks (the shared schemas read them when they validate)
  usernameRequired: "Username is required",
  passwordRequired: "Password is required",
  emailRequired: "Email is required",
  newPasswordRequired: "New Password is required",
  confirmPasswordRequired: "Confirm Password is required",
  currentPasswordRequired: "Current password is required",
  commenterNameRequired: "Name is required",
  commenterNameTooLong: "Name must be at most {max} characters",
  mustNotBeEmpty: "must not be empty",
  usernameTooShort: "Username must be at least {min} characters",
  usernameTooLong: "Username must be at most {max} characters",
  usernameCharacters: "Username may contain only letters, digits, dots, dashes and underscores",
  passwordTooShort: "Password must be at least {min} characters",
  passwordTooLong: "Password must be at most {max} characters",
  invalidEmail: "Please enter a valid email address",
  displayNameTooLong: "Display name must be at most {max} characters",
} as const);

const PHOTO_FORMATS = "JPEG, PNG, WebP or AVIF";

/**
 * What each error code of the API (`{ code, message }`) and of a failed memory or comment
 * (`memories.error`, `comments.error`: stage and reason) says: the one catalogue of error words.
 * The client shows `messageFor(code)`; the codes are stable, the words may change.
 */
export const ERROR_MESSAGES = translatable("ERROR_MESSAGES", {
  // Any request
  bad_request: MESSAGES.badRequest,
  invalid_value: "A value in the request is not valid. Please reload the page and try again.",
  upload_incomplete: "The upload was cut off or malformed. Please send it again.",
  nul_character: "The request contains a NUL character, which is not allowed",
  not_logged_in: MESSAGES.notLoggedIn,
  not_found: MESSAGES.notFound,
  too_large: MESSAGES.tooLarge,
  too_many_requests: MESSAGES.tooManyRequests,
  range_not_satisfiable: "Range not satisfiable",
  cross_site_refused: "Cross-site request refused",
  metrics_token_required: "A valid metrics token is required",
  internal_error: MESSAGES.internalError,
  database_unreachable: MESSAGES.databaseUnreachable,
  storage_unreachable: MESSAGES.storageUnreachable,
  database_and_storage_unreachable: MESSAGES.databaseAndStorageUnreachable,
  storage_full: MESSAGES.storageFull,
  // Accounts
  "auth.invalid_credentials": MESSAGES.invalidCredentials,
  "auth.username_taken": MESSAGES.usernameTaken,
  "auth.email_taken": MESSAGES.emailTaken,
  "auth.invalid_reset_token": MESSAGES.invalidResetToken,
  "auth.wrong_current_password": MESSAGES.currentPasswordIncorrect,
  "account.invalid_confirmation": MESSAGES.invalidConfirmationDescription,
  "profile.not_found": MESSAGES.profileNotFound,
  // Uploads
  "audio.not_audio": "The file is not a supported audio format (MP3, WebM, Ogg, WAV or M4A)",
  "audio.too_short": `The recording is too short (under ${MIN_RECORDING_BYTES} bytes)`,
  "audio.unreadable": "The recording cannot be read. Please record it again.",
  "audio.file_required": "Send the recording as multipart/form-data in the field 'audio'",
  "audio.invalid_upload_key": "The upload key must be 8 to 100 letters, digits or dashes",
  "audio.not_yours": "No recording of yours was uploaded at this address",
  "audio.already_used": "This recording already has a memory or comment",
  "audio.upload_first": "Upload the recording first",
  // Memories
  "memory.not_owner": "Only the owner can change this memory",
  "memory.too_many_tags": MESSAGES.maxTagsReachedDescription,
  "memory.being_processed": MESSAGES.editWhileProcessing,
  "memory.already_processing": MESSAGES.alreadyProcessing,
  "memory.no_transcript":
    "There is no transcript to make a summary from; add one and save it first",
  "memory.only_failed_retry": "Only a memory whose processing failed can be retried",
  "memory.already_claimed": "This memory has already been saved to an account",
  "memory.claim_expired": "This memory can no longer be claimed; please record it again",
  "memory.daily_limit":
    "You have reached today's limit of recordings without an account. Please sign up or log in to record more.",
  "memory.no_better_transcript": MESSAGES.noBetterTranscript,
  "memory.no_proposed_transcript": MESSAGES.noProposedTranscript,
  "comment.only_owner_removes": "Only the memory's owner can remove comments",
  // Family journals
  "journal.not_organizer": "Only an organizer of this journal can do that",
  "journal.cannot_record": "Only an organizer or a storyteller can record in this journal",
  "journal.last_organizer":
    "This journal needs an organizer. Make another member an organizer first, then try again.",
  "journal.already_member": "This person is already a member of the journal",
  "journal.too_many_members": "This journal has as many members as it can hold",
  "invitation.invalid":
    "This invitation no longer works: it was used, revoked or is more than 7 days old. Ask for a new one.",
  "question.cannot_ask": "Only an organizer or a relative can ask a storyteller a question",
  "question.not_a_storyteller": "Questions are asked of the journal's storytellers",
  "question.order_invalid": "Only a question still waiting can be moved",
  "replies.not_storyteller": "Only the storyteller who told this story hears of its replies",
  "replies.unsubscribe_invalid": "This unsubscribe link is not valid.",
  "recording_link.invalid": "This recording link no longer works. Ask your family for a new one.",
  "recording_link.not_a_storyteller":
    "Only an organizer or a storyteller can have a recording link",
  "recording_link.none": "This member has no recording link. Make one first.",
  "recording_link.make_new":
    "This link was made before links could be shown again. Make a new link to see it or print its card.",
  // Restoring a backup
  "backup.file_required": "Send the backup zip as multipart/form-data in the field 'backup'",
  "backup.not_a_zip": "The file is not a readable zip",
  "backup.damaged":
    "The backup zip is damaged or holds files it must not (links, encrypted or unsafe entries)",
  "backup.not_a_backup": "memories.json is missing; is this a Voice Memory Journal backup?",
  "backup.invalid": "The backup's memories.json is not valid",
  "backup.unknown_version": "This backup was made by a newer version and cannot be read here",
  "backup.bad_file":
    "A recording or photo in the backup is missing, damaged or not listed in memories.json",
  // Photos
  "photo.not_an_image": `The file is not a supported image (${PHOTO_FORMATS})`,
  "photo.heic": `HEIC/HEIF photos cannot be read here; send ${PHOTO_FORMATS} (on an iPhone, share the photo as JPEG or choose "Most Compatible" in the camera settings)`,
  "photo.unreadable": `The image cannot be read; send an undamaged ${PHOTO_FORMATS} file`,
  "photo.too_many_pixels": `The image has too many pixels (over ${PHOTO_MAX_PIXELS / 1_000_000} megapixels)`,
  "photo.too_large_to_open": `The image is too large to open (over ${PHOTO_MAX_DECODED_BYTES / 1_000_000} MB once decoded); send it as a JPEG or at a smaller size`,
  "photo.too_many": `A memory can have up to ${PHOTOS_PER_MEMORY} photos.`,
  "photo.required": `Send one image as multipart/form-data in the field '${PHOTO_FIELD}'`,
  "photo.order_mismatch": "List every photo of the memory exactly once",
  "photo.change_failed": PHOTO_MESSAGES.changeFailed,
  // Share links, news and reminders
  "share.too_many": `You have ${SHARE_LINKS_PER_USER} share links; revoke one first.`,
  "share.too_many_subscribers": "This link already sends news to as many addresses as it can.",
  "share.unsubscribe_invalid":
    "This link no longer works: the share link was revoked or the link is wrong.",
  "share.confirm_invalid":
    "This confirmation link no longer works: the address was removed, the share link was revoked or the link is wrong. Ask for the news again from the shared memories.",
  "reminders.unsubscribe_invalid": "This unsubscribe link is not valid.",
  "reminders.special_day_twice": "Two special days have the same name",
  // A failed memory or comment: the stage, then the reason
  "transcribe.failed": `${MESSAGES.transcriptionFailedPrefix}${MESSAGES.internalError}`,
  "transcribe.no_speech": MESSAGES.noSpeechDetected,
  "transcribe.recording_missing": `${MESSAGES.transcriptionFailedPrefix}${MESSAGES.recordingMissing}`,
  "summarize.failed": `${MESSAGES.summarizeFailedPrefix}${MESSAGES.internalError}`,
  "score.failed": `${MESSAGES.scoreFailedPrefix}${MESSAGES.internalError}`,
  "tag.failed": `${MESSAGES.tagsFailedPrefix}${MESSAGES.internalError}`,
  "tag.invalid_format": `${MESSAGES.tagsFailedPrefix}${MESSAGES.invalidTagFormat}`,
  "save.failed": MESSAGES.internalError,
  "processing.failed": MESSAGES.processingFailed,
  "processing.unfinished": MESSAGES.restoredUnfinished,
} as const satisfies Record<string, string>);

export type ErrorCode = keyof typeof ERROR_MESSAGES;

/** The codes a failed memory or comment stores (`memories.error`, `comments.error`). */
export const PROCESSING_ERROR_CODES = [
  "transcribe.failed",
  "transcribe.no_speech",
  "transcribe.recording_missing",
  "summarize.failed",
  "score.failed",
  "tag.failed",
  "tag.invalid_format",
  "save.failed",
  "processing.failed",
  "processing.unfinished",
] as const satisfies readonly ErrorCode[];
export type ProcessingErrorCode = (typeof PROCESSING_ERROR_CODES)[number];

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === "string" && Object.hasOwn(ERROR_MESSAGES, code);
}

/** The words for an error code; `fallback`'s words when the code is missing or unknown. */
export function messageFor(code: string | null | undefined, fallback: ErrorCode): string {
  return ERROR_MESSAGES[isErrorCode(code) ? code : fallback];
}

export const DEFAULT_BACKUP_FILENAME = "memories-backup.zip";

/** The printable memory book: the home page's button and its dialog. */
export const MEMORY_BOOK = translatable("MEMORY_BOOK", {
  button: "Printable memory book",
  dialogDescription:
    "A PDF of your saved memories to print: each story on its own page with its photos, and a QR code that plays the recording. Leave the fields empty for every memory.",
  from: "From",
  to: "To",
  tag: "Tag",
  paper: "Paper size",
  paperSizes: { a4: "A4 (210 × 297 mm)", letter: "US Letter (8.5 × 11 in)" },
  /** Said in the dialog: how the printed codes keep playing, and how to stop them. */
  shareLinkNote:
    'The QR codes play through a share link named "Memory book" and today\'s date, so whoever holds the page can listen, even while your profile is private. Revoking that link under Share links on your Account page stops them.',
  create: "Create book",
  preparing: "Preparing your book...",
  ready: "Memory book ready",
  failed: "Memory book failed",
  toBeforeFrom: "'To' must not be before 'From'",
  defaultFilename: "memory-book.pdf",
  /** While the codes would open a loopback address: said, and asked before printing. */
  loopbackWarning:
    "The QR codes would open {base}, which works only on this computer: scanned with a phone they open nothing. Open the journal at its network address (or set APP_URL) before printing.",
  loopbackConfirm: "Print these codes anyway?",
  createAnyway: "Create book anyway",
} as const);

/** The text printed in the memory book's PDF (server only, so it stays out of the web bundle). */
export const MEMORY_BOOK_PDF = {
  title: "Memory Book",
  /** The PDF's own title, as a reader's file list shows it. */
  documentTitle: "{title}: {name}",
  contents: "Contents",
  letter: "Letter",
  transcript: "Transcript",
  tags: "Tags: {tags}",
  scanToListen: "Scan to listen",
  noMemories: "No saved memories match this book's dates and tag.",
  allMemories: "All memories",
  taggedWith: "Tagged: {tag}",
  made: "Made on {date}",
  /** The chapter of stories whose storyteller is not known, in a book with chapters. */
  otherStories: "More stories",
} as const;

/**
 * The words of a backup zip's index.html, the page a family opens from the unzipped folder to read
 * and play its memories offline (server only, so it stays out of the web bundle).
 */
export const BACKUP_INDEX = {
  madeOn: "Backup made on",
  intro:
    "Open this page from the unzipped folder: the recordings and photos beside it play and show without a connection. memories.json is what Restore from backup on the Account page reads.",
  noMemories: "This backup holds no memories.",
  transcript: "Transcript",
  comments: "Comments",
  recordingMissing: "The recording was missing from the server when this backup was made.",
  downloadRecording: "Download the recording",
  /** A photo's alternative text. */
  photoAlt: "Photo {position} of {count}: {title}",
  /** The count under the heading. */
  memoryCount: "{count, plural, one {# memory} other {# memories}}",
} as const;

/** A photo's alternative text in the backup's index.html: 'Photo 2 of 3: {title}'. */
export function photoAlt(position: number, count: number, title: string): string {
  return formatMessage(BACKUP_INDEX.photoAlt, { position, count, title });
}

/** The count under the backup's heading: '1 memory', '42 memories'. */
export function memoryCount(count: number): string {
  return formatMessage(BACKUP_INDEX.memoryCount, { count });
}

/** 'No comments', '1 comment', 'N comments'. */
export function commentCountLabel(count: number): string {
  if (count === 0) return MESSAGES.noComments;
  if (count === 1) return MESSAGES.oneComment;
  return formatMessage(MESSAGES.commentCount, { count });
}

/** '{displayName or username}'s Memories'. */
export function profileTitle(user: { username: string; displayName?: string | null }): string {
  return formatMessage(MESSAGES.profileTitle, { name: user.displayName || user.username });
}

/** 'Signed in as {display name or username}'. */
export function signedInAs(user: { username: string; displayName?: string | null }): string {
  return formatMessage(MESSAGES.signedInAs, { name: user.displayName || user.username });
}

/** The time recorded so far, as m:ss (1:05; 12:00 after twelve minutes). */
export function recordingClock(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** The pencil beside a memory in a list: "Edit" and its title. */
export function editMemoryNamed(title: string): string {
  return formatMessage(MESSAGES.editMemoryNamed, { title: title || MESSAGES.memoryWord });
}

/** The home page's indicator of recordings kept in the browser until they are uploaded. */
export function pendingRecordingsLabel(count: number): string {
  return formatMessage(MESSAGES.pendingRecordings, { count });
}

/** What a restore brought back, in words. */
export function restoreSummary(result: { imported: number; skipped: number; failed: unknown[] }) {
  return formatMessage(MESSAGES.restoreSummary, {
    imported: result.imported,
    skipped: result.skipped,
    failed: result.failed.length,
  });
}

/** 'n/5 tags used'. */
export function tagsUsedLabel(count: number, max: number): string {
  return formatMessage(MESSAGES.tagsUsed, { count, max });
}

/**
 * The error codes whose words already say what to do next ("... try again.", "Please sign up or
 * log in ..."): after "Failed to save memory" they are shown as they are, so nothing is said twice.
 */
const SAYS_WHAT_TO_DO: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  "bad_request",
  "invalid_value",
  "upload_incomplete",
  "too_many_requests",
  "internal_error",
  "storage_full",
  "account.invalid_confirmation",
  "audio.unreadable",
  "memory.already_processing",
  "memory.daily_limit",
  "memory.claim_expired",
  "journal.last_organizer",
  "transcribe.failed",
  "transcribe.no_speech",
  "summarize.failed",
  "score.failed",
  "tag.failed",
  "save.failed",
  "processing.unfinished",
]);

/** '{the code's words}. Please try again.', or the words alone when they say what to do already. */
export function failedSaveMemoryDescription(code: ErrorCode): string {
  const words = ERROR_MESSAGES[code];
  if (SAYS_WHAT_TO_DO.has(code)) return words;
  return formatMessage(MESSAGES.wordsThenTryAgain, { words: words.replace(/[.。]$/, "") });
}

/** Under an unclaimed recording: until when it can still be saved to an account. */
export function unclaimedDeadline(when: string): string {
  return formatMessage(MESSAGES.unclaimedDeadline, { when });
}

/** The offer after logging in or signing up in a browser that recorded without an account. */
export function attachOfferDescription(count: number): string {
  return formatMessage(MESSAGES.attachOffer, { count });
}

/** After recordings were attached to the account. */
export function recordingsAdded(count: number): string {
  return formatMessage(MESSAGES.recordingsAdded, { count });
}

/** The prompt shown when a new version of the app has been deployed (its service worker waits). */
export const UPDATE_MESSAGES = translatable("UPDATE_MESSAGES", {
  newVersion: "A new version is available",
  reload: "Reload",
  later: "Not now",
  region: "App update",
} as const);

/**
 * The footer's coming-soon list (the spec leaves its contents open): only what is not built yet.
 * Sharing, memory books, reminders and photos left it when they shipped.
 */
export const COMING_SOON = translatable("COMING_SOON", [
  "Bound books printed and posted to you",
  "Recording by phone for grandparents",
]);

/** The year navigator's name, and each year's accessible name ('2019, 42 memories'). */
export function yearLabel(year: string, count: number): string {
  return formatMessage(MESSAGES.yearLabel, { year, count });
}

/** A player's position for screen readers: '0:12 of 1:05'. */
export function playbackPositionText(elapsed: string, total: string): string {
  return formatMessage(MESSAGES.playbackPositionText, { elapsed, total });
}

/** The accessible name of a spoken comment's player and of its remove button. */
export function commentPlayerLabel(name: string): string {
  return formatMessage(MESSAGES.commentBy, { name });
}
export function removeCommentLabel(name: string): string {
  return formatMessage(MESSAGES.removeCommentBy, { name });
}
export function removeCommentDescription(name: string): string {
  return formatMessage(MESSAGES.removeCommentDescription, { name });
}

/** The browser tab's title: the page's own name first, then the product ('Voice Memory Journal' alone on the home page). */
export function documentTitle(page?: string): string {
  return page
    ? formatMessage(MESSAGES.documentTitle, { page, app: MESSAGES.appTitle })
    : MESSAGES.appTitle;
}

/** The Account page's offer to transcribe the fallback's memories again (ADR 0041). */
export function betterTranscriptsLabel(count: number): string {
  return formatMessage(MESSAGES.betterTranscripts, { count });
}

/** What the Account page says once they are queued. */
export function transcribingAgainLabel(count: number): string {
  return formatMessage(MESSAGES.transcribingAgain, { count });
}
