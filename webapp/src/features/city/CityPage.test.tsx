import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../test/routeStub';
import { renderScreen } from '../../test/renderApp';
import { CityPage } from './CityPage';

const listing = (id: string, name: string, city: string, certified: number, depositPaid: number) => ({
  id,
  cityId: city === 'Shanghai' ? '1' : '2',
  city,
  name,
  age: 24,
  photos: ['/p1.png', '/p2.png'],
  intro: 'Hello',
  certified,
  depositPaid,
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('CityPage', () => {
  it('lists the chosen city with badges and sends contact requests to customer service', async () => {
    const api = stubApi({
      '/getCityList': [
        { id: '1', name: 'Shanghai', count: 1 },
        { id: '2', name: 'Kuala Lumpur', count: 1 },
      ],
      '/sameCityList': (body) => {
        const list = body.city === '1' ? [listing('10', 'Lily', 'Shanghai', 1, 0)] : [listing('20', 'Mia', 'Kuala Lumpur', 0, 1)];
        return { list, total: 1, page: 1, pageSize: 10, pages: 1 };
      },
    });
    const { router } = renderScreen('/pages/tabBar/city', CityPage);
    expect(await screen.findByRole('heading', { name: /Lily/ }, { timeout: 5_000 })).toBeInTheDocument();
    expect(screen.getByText('24 years old')).toBeInTheDocument();
    expect(screen.getByText('Officially certified')).toBeInTheDocument();
    expect(screen.queryByText('Deposit paid')).not.toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Lily, photo 1 of 2' })).toHaveAttribute('src', '/p1.png');
    const contact = screen.getByRole('link', { name: 'Get contact' });
    const link = new URL(contact.getAttribute('href')!, 'http://x').searchParams;
    // The player's draft names the listing in words; which listing it is
    // goes beside it, for the operator, never as an id in the text.
    expect(link.get('draft')).toContain('Lily');
    expect(link.get('draft')).not.toContain('10');
    expect(link.get('about')).toBe('listing:10');

    await userEvent.setup().click(screen.getByRole('radio', { name: /Kuala Lumpur/ }));
    expect(await screen.findByRole('heading', { name: /Mia/ })).toBeInTheDocument();
    expect(screen.getByText('Deposit paid')).toBeInTheDocument();
    await waitFor(() => {
      expect(router.state.location.search).toBe('?city=2');
    });
    expect(api.called('/sameCityList').map((c) => c.body.city)).toEqual(['1', '2']);
  });
});
