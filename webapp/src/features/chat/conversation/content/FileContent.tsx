import { useTranslation } from 'react-i18next';
import type { FileElem } from '../../../../api/socket/types';
import { useAttachmentUrl } from '../../../../components/hooks/useAttachmentUrl';
import { FileIcon } from '../../../../components/icons/Icons';
import { formatBytes } from '../media';

export function FileContent({ elem }: { elem: FileElem }) {
  const { t } = useTranslation();
  const href = useAttachmentUrl(elem.sourceUrl);
  const body = (
    <>
      <span className="msg-file__icon">
        <FileIcon />
      </span>
      <span className="msg-file__main">
        <span className="msg-file__name">{elem.fileName}</span>
        <span className="msg-file__size">{formatBytes(elem.fileSize)}</span>
      </span>
    </>
  );
  if (!href || href.startsWith('blob:')) return <span className="msg-file">{body}</span>;
  return (
    <a className="msg-file" href={href} download={elem.fileName} aria-label={t('chat.message.downloadFile', { name: elem.fileName })}>
      {body}
    </a>
  );
}
