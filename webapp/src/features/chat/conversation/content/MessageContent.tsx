import { useTranslation } from 'react-i18next';
import { ContentType, type MessageItem } from '../../../../api/socket/types';
import { AtTextContent } from './AtTextContent';
import { CardContent } from './CardContent';
import { CustomContent } from './CustomContent';
import { FaceContent } from './FaceContent';
import { FileContent } from './FileContent';
import { ImageContent } from './ImageContent';
import { LocationContent } from './LocationContent';
import { MergeContent } from './MergeContent';
import { QuoteContent } from './QuoteContent';
import { TextContent } from './TextContent';
import { VideoContent } from './VideoContent';
import { VoiceContent } from './VoiceContent';

/** The body of a user message by its type; unknown types say so. */
export function MessageContent({ message: m, me }: { message: MessageItem; me: string }) {
  const { t } = useTranslation();
  switch (m.contentType) {
    case ContentType.text:
      if (m.textElem) return <TextContent text={m.textElem.content} />;
      break;
    case ContentType.atText:
      if (m.atTextElem) return <AtTextContent elem={m.atTextElem} me={me} mine={m.sendID === me} />;
      break;
    case ContentType.picture:
      if (m.pictureElem) return <ImageContent elem={m.pictureElem} />;
      break;
    case ContentType.voice:
      if (m.soundElem) return <VoiceContent elem={m.soundElem} />;
      break;
    case ContentType.video:
      if (m.videoElem) return <VideoContent elem={m.videoElem} />;
      break;
    case ContentType.file:
      if (m.fileElem) return <FileContent elem={m.fileElem} />;
      break;
    case ContentType.location:
      if (m.locationElem) return <LocationContent elem={m.locationElem} />;
      break;
    case ContentType.card:
      if (m.cardElem) return <CardContent elem={m.cardElem} />;
      break;
    case ContentType.merger:
      if (m.mergeElem) return <MergeContent elem={m.mergeElem} me={me} />;
      break;
    case ContentType.quote:
      if (m.quoteElem) return <QuoteContent elem={m.quoteElem} me={me} />;
      break;
    case ContentType.face:
      if (m.faceElem) return <FaceContent elem={m.faceElem} />;
      break;
    case ContentType.custom:
      if (m.customElem) return <CustomContent elem={m.customElem} />;
      break;
  }
  return <p className="msg-text msg-unsupported">{t('chat.errors.unsupportedType')}</p>;
}
