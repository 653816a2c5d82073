import { render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ContentType } from '../../../../api/socket/types';
import { createI18n } from '../../../../i18n';
import { textMessage } from '../../data/testMessages';
import { MessageContent } from './MessageContent';

function show(message: Parameters<typeof MessageContent>[0]['message']) {
  const router = createMemoryRouter([{ path: '/', element: <MessageContent message={message} me="1" /> }]);
  return render(
    <I18nextProvider i18n={createI18n('en-US')}>
      <RouterProvider router={router} />
    </I18nextProvider>,
  );
}

describe('MessageContent', () => {
  it('shows text as text: markup is escaped, links open safely', () => {
    const { container } = show(textMessage({ clientMsgID: 'a', textElem: { content: '<b>bold</b> https://kj.test/x' } }));
    expect(container.querySelector('b')).toBeNull();
    expect(screen.getByText('<b>bold</b>', { exact: false })).toBeInTheDocument();
    const link = screen.getByRole('link', { name: 'https://kj.test/x' });
    expect(link).toHaveAttribute('rel', expect.stringContaining('noopener'));
    expect(link).toHaveAttribute('target', '_blank');
  });

  it('opens an image in /preview-image and a location in /open-location', () => {
    show(
      textMessage({
        clientMsgID: 'a',
        contentType: ContentType.picture,
        textElem: undefined,
        pictureElem: {
          sourcePath: '',
          sourcePicture: { uuid: '', type: 'image/png', size: 1, width: 400, height: 200, url: '/files/chat/1/p.png' },
          bigPicture: null,
          snapshotPicture: null,
        },
      }),
    );
    const link = screen.getByRole('link', { name: 'View image' });
    expect(link.getAttribute('href')).toBe('/preview-image?url=%2Ffiles%2Fchat%2F1%2Fp.png');
    expect(screen.getByRole('img', { name: '[Image]' })).toHaveAttribute('width', '200');
  });

  it('links a business card to the profile and says so for an unknown type', () => {
    show(
      textMessage({
        clientMsgID: 'a',
        contentType: ContentType.card,
        textElem: undefined,
        cardElem: { userID: '42', nickname: 'carol', faceURL: '', ex: '' },
      }),
    );
    expect(screen.getByRole('link', { name: /carol/ }).getAttribute('href')).toBe('/pages/chat/user-info?userID=42');
  });

  it('marks an unsupported type', () => {
    show(textMessage({ clientMsgID: 'a', contentType: 4321, textElem: undefined }));
    expect(screen.getByText('Unsupported message type')).toBeInTheDocument();
  });
});
